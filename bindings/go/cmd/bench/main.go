// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Command bench measures the Go binding on a large eredu.groups.v1
// description (the one scripts/bench-bindings writes): TP 8 x PP 2 x EP 8
// (128 ranks), policy require. It prints one line per figure,
// `bench go <figure> <value> <unit>`:
//
//	load       ms: the file's bytes (already in memory) -> ModelFromJSON
//	plan_one   ms: PlanRank(rank 0) and its LocalModelLayout.JSON text
//	plan_all   ms: PlanWorldJSON (threads 0)
//	accessor   ns: one LocalModelLayout.Len call, averaged over 10^6 calls
//	tensor_at  ns: one LocalModelLayout.TensorAt call (every field of one
//	               tensor), averaged over 10^6 calls cycling through rank
//	               0's tensors
//
// Each figure is the median of -runs runs (at least 5). Figures are
// reported, never asserted.
//
//	cd bindings/go && GOPROXY=off \
//	  PKG_CONFIG_PATH=$BUILD/capi LD_LIBRARY_PATH=$BUILD/capi \
//	  go run ./cmd/bench [-runs 5] FILE
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/eredu/eredu/bindings/go/eredu"
)

const accessorCalls = 1_000_000

var topology = eredu.NewParallelTopology(8, 2, 8, 1)

func main() {
	runs := flag.Int("runs", 5, "runs per figure (the median is printed; at least 5)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: bench [-runs N] FILE.groups.json\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if *runs < 5 {
		*runs = 5
	}
	if err := run(flag.Arg(0), *runs); err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		os.Exit(1)
	}
}

func run(path string, runs int) error {
	document, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var model *eredu.ModelDescription
	load, err := median(runs, func() error {
		m, err := eredu.ModelFromJSON(document)
		if err != nil {
			return err
		}
		if model != nil {
			model.Close()
		}
		model = m
		return nil
	})
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	defer model.Close()

	planOne, err := median(runs, func() error {
		layout, err := model.PlanRank(topology, 0, eredu.PlanOptions{Policy: eredu.PolicyRequire})
		if err != nil {
			return err
		}
		defer layout.Close()
		_, err = layout.JSON()
		return err
	})
	if err != nil {
		return fmt.Errorf("plan_one: %w", err)
	}

	planAll, err := median(runs, func() error {
		_, err := model.PlanWorldJSON(topology, eredu.PlanOptions{Policy: eredu.PolicyRequire})
		return err
	})
	if err != nil {
		return fmt.Errorf("plan_all: %w", err)
	}

	layout, err := model.PlanRank(topology, 0, eredu.PlanOptions{Policy: eredu.PolicyRequire})
	if err != nil {
		return err
	}
	defer layout.Close()
	tensors := layout.Len()
	if tensors == 0 {
		return fmt.Errorf("rank 0 has no tensor")
	}
	accessor, err := median(runs, func() error {
		for i := 0; i < accessorCalls; i++ {
			if layout.Len() != tensors {
				return fmt.Errorf("Len changed")
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("accessor: %w", err)
	}
	tensorAt, err := median(runs, func() error {
		for i := 0; i < accessorCalls; i++ {
			if _, err := layout.TensorAt(i % tensors); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("tensor_at: %w", err)
	}

	fmt.Printf("bench go load %.1f ms\n", ms(load))
	fmt.Printf("bench go plan_one %.1f ms\n", ms(planOne))
	fmt.Printf("bench go plan_all %.1f ms\n", ms(planAll))
	fmt.Printf("bench go accessor %.1f ns\n", float64(accessor.Nanoseconds())/accessorCalls)
	fmt.Printf("bench go tensor_at %.1f ns\n", float64(tensorAt.Nanoseconds())/accessorCalls)
	return nil
}

// median times f runs times and returns the median duration.
func median(runs int, f func() error) (time.Duration, error) {
	times := make([]time.Duration, 0, runs)
	for i := 0; i < runs; i++ {
		start := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		times = append(times, time.Since(start))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2], nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
