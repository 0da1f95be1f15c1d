// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

// Plans one rank through the Go binding, built against the installed
// liberedu, and prints its eredu.layout.v1 text: plan DESCRIPTION.json TP RANK
package main

import (
	"log"
	"os"
	"strconv"

	"github.com/eredu/eredu/bindings/go/eredu"
)

func main() {
	if len(os.Args) != 4 {
		log.Fatal("usage: plan DESCRIPTION.json TP RANK")
	}
	doc, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	tensor, err := strconv.ParseUint(os.Args[2], 10, 64)
	if err != nil {
		log.Fatal(err)
	}
	rank, err := strconv.ParseUint(os.Args[3], 10, 64)
	if err != nil {
		log.Fatal(err)
	}
	model, err := eredu.ModelFromJSON(doc)
	if err != nil {
		log.Fatal(err)
	}
	defer model.Close()
	layout, err := model.PlanRank(eredu.NewParallelTopology(tensor, 1, 1, 1), rank, eredu.PlanOptions{Policy: eredu.PolicyRequire})
	if err != nil {
		log.Fatal(err)
	}
	defer layout.Close()
	text, err := layout.JSON()
	if err != nil {
		log.Fatal(err)
	}
	os.Stdout.WriteString(text)
}
