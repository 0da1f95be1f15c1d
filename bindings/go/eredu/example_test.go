// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu_test

import (
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/eredu/eredu/bindings/go/eredu"
)

const gqaDescription = `{"schema":"eredu.groups.v1","groups":[{"name":"layers.0.self_attn",` +
	`"role":"attention_heads","partition_units":8,"members":[` +
	`{"target":"q.weight","shape":[4096,4096],"dtype":"BF16","sharding":{"kind":"partitioned","axis":0}},` +
	`{"target":"k.weight","shape":[1024,4096],"dtype":"BF16","sharding":{"kind":"partitioned","axis":0}},` +
	`{"target":"v.weight","shape":[1024,4096],"dtype":"BF16","sharding":{"kind":"partitioned","axis":0}},` +
	`{"target":"o.weight","shape":[4096,4096],"dtype":"BF16","sharding":{"kind":"partitioned","axis":1}}]}]}`

// The README's example: load a description, plan one rank, read a tensor.
func Example() {
	model, err := eredu.ModelFromJSON([]byte(gqaDescription))
	if err != nil {
		log.Fatal(err)
	}
	defer model.Close()
	layout, err := model.PlanRank(eredu.NewParallelTopology(4, 1, 1, 1), 1, eredu.PlanOptions{Policy: eredu.PolicyRequire})
	if err != nil {
		log.Fatalf("plan: %v (unshardable: %v)", err, errors.Is(err, eredu.ErrInvalidTensor))
	}
	defer layout.Close()
	q, _ := layout.Tensor("q.weight")
	r, _ := q.LogicalRange()
	fmt.Println(q.LocalShape(), q.Placement().Kind, r)
	text, _ := layout.JSON()
	fmt.Println(strings.HasPrefix(text, `{"schema":"eredu.layout.v1"`))
	// Output:
	// [1024 4096] range {2 4}
	// true
}

// Errors compare by status code with errors.Is and carry the message.
func ExampleError() {
	model, _ := eredu.ModelFromJSON([]byte(gqaDescription))
	defer model.Close()
	_, err := model.PlanRank(eredu.NewParallelTopology(16, 1, 1, 1), 0, eredu.PlanOptions{Policy: eredu.PolicyRequire})
	var e *eredu.Error
	if errors.Is(err, eredu.ErrInvalidTensor) && errors.As(err, &e) {
		fmt.Println(int32(e.Code), e.Name)
		fmt.Println(e.Message)
	}
	// Output:
	// 101 EREDU_E_INVALID_TENSOR
	// logical parameter "layers.0.self_attn": 8 partition units — declared by the group — cannot be split 16 ways; tensor sizes up to 64 that work for this group: 1, 2, 3, 4, 5, 6, 7, 8
}

// Every rank at once, with a progress function that stops the call.
func ExampleModelDescription_PlanWorldJSON() {
	model, err := eredu.ModelFromJSON([]byte(gqaDescription))
	if err != nil {
		log.Fatal(err)
	}
	defer model.Close()
	world := eredu.NewParallelTopology(4, 1, 1, 2)
	text, err := model.PlanWorldJSON(world, eredu.PlanOptions{Threads: 1})
	fmt.Println(strings.HasPrefix(text, `{"schema":"eredu.world.v1"`), err)
	_, err = model.PlanWorldJSON(world, eredu.PlanOptions{
		Threads: 1,
		Progress: func(done, total uint64) bool {
			fmt.Printf("%d/%d\n", done, total)
			return done < 2 // false cancels
		},
	})
	fmt.Println(errors.Is(err, eredu.ErrCancelled), err)
	// Output:
	// true <nil>
	// 1/8
	// 2/8
	// true eredu: EREDU_E_CANCELLED (12): cancelled by the progress callback after 2 of 8 ranks
}

// Which sizes work: every topology up to eight ranks, admitted against a
// device budget.
func ExampleModelDescription_FitJSON() {
	model, err := eredu.ModelFromJSON([]byte(gqaDescription))
	if err != nil {
		log.Fatal(err)
	}
	defer model.Close()
	text, err := model.FitJSON(eredu.PlanOptions{Threads: 1}, eredu.CheckOptions{},
		eredu.FitOptions{MaxWorld: 8})
	fmt.Println(strings.HasPrefix(text, `{"schema":"eredu.fit.v1"`), err)
	fmt.Println(strings.HasSuffix(text, `"smallest_fitting_world":1}`+"\n"))
	_, err = model.FitJSON(eredu.PlanOptions{}, eredu.CheckOptions{}, eredu.FitOptions{})
	fmt.Println(err)
	// Output:
	// true <nil>
	// true
	// eredu: EREDU_E_INVALID_ARGUMENT (2): the largest world must be from 1 to 1024, got 0
}
