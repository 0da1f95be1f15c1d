// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// vectorCase is one line of tests/vectors/cases.txt (tests/vectors/README.md).
type vectorCase struct {
	name, op, groups, residency string
	topology                    ParallelTopology
	rank                        uint64
	pipelineLayers              []uint64 // pp_layers=; nil: balanced stages
	policy                      ShardingPolicy
	deviceBudget                uint64
	hasDeviceBudget             bool
}

// vectorsDir is tests/vectors of this checkout, or $EREDU_VECTORS_DIR.
func vectorsDir(t *testing.T) string {
	if dir := os.Getenv("EREDU_VECTORS_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(repoRoot(t), "tests", "vectors")
}

func parseVectorCase(line string) (vectorCase, error) {
	c := vectorCase{topology: NewParallelTopology(1, 1, 1, 1), policy: PolicyRequire}
	seen := map[string]bool{}
	for _, token := range strings.Fields(line) {
		key, value, ok := strings.Cut(token, "=")
		if !ok {
			return c, fmt.Errorf("token %q is not key=value", token)
		}
		if seen[key] {
			return c, fmt.Errorf("key %q repeated", key)
		}
		seen[key] = true
		number := func(dst *uint64) error {
			n, err := strconv.ParseUint(value, 10, 64)
			if err != nil {
				return fmt.Errorf("%s=%q: %v", key, value, err)
			}
			*dst = n
			return nil
		}
		var err error
		switch key {
		case "name":
			c.name = value
		case "op":
			if value != "layout" && value != "world" && value != "check" {
				return c, fmt.Errorf("unknown op %q", value)
			}
			c.op = value
		case "groups":
			c.groups = value
		case "tp":
			err = number(&c.topology.Tensor)
		case "pp":
			err = number(&c.topology.Pipeline)
		case "ep":
			err = number(&c.topology.Expert)
		case "dp":
			err = number(&c.topology.Data)
		case "rank":
			err = number(&c.rank)
		case "pp_layers":
			for _, count := range strings.Split(value, ",") {
				n, perr := strconv.ParseUint(count, 10, 64)
				if perr != nil {
					return c, fmt.Errorf("%s=%q: %v", key, value, perr)
				}
				c.pipelineLayers = append(c.pipelineLayers, n)
			}
		case "policy":
			switch value {
			case "require":
				c.policy = PolicyRequire
			case "replicate-unsupported":
				c.policy = PolicyReplicateUnsupported
			case "require-even":
				c.policy = PolicyRequireEven
			default:
				return c, fmt.Errorf("unknown policy %q", value)
			}
		case "residency":
			c.residency = value
		case "device_budget":
			err = number(&c.deviceBudget)
			c.hasDeviceBudget = true
		default:
			return c, fmt.Errorf("unknown key %q", key)
		}
		if err != nil {
			return c, err
		}
	}
	switch {
	case c.name == "" || strings.Trim(c.name, "abcdefghijklmnopqrstuvwxyz0123456789_.-") != "":
		return c, fmt.Errorf("missing or invalid name %q", c.name)
	case c.op == "":
		return c, fmt.Errorf("case %s: missing op", c.name)
	case c.groups == "":
		return c, fmt.Errorf("case %s: missing groups", c.name)
	}
	return c, nil
}

// runVectorCase returns the case's output text: the library's text, or the
// error line of the README (then one line per problem when there are more
// than one).
func runVectorCase(dir string, c vectorCase) (string, error) {
	document, err := os.ReadFile(filepath.Join(dir, c.groups))
	if err != nil {
		return "", err
	}
	var options CheckOptions
	if c.residency != "" {
		if options.ResidencyJSON, err = os.ReadFile(filepath.Join(dir, c.residency)); err != nil {
			return "", err
		}
	}
	options.DeviceBudgetBytes, options.HasDeviceBudget = c.deviceBudget, c.hasDeviceBudget

	text, err := func() (string, error) {
		model, err := ModelFromJSON(document)
		if err != nil {
			return "", err
		}
		defer model.Close()
		plan := PlanOptions{Policy: c.policy, PipelineLayers: c.pipelineLayers}
		switch c.op {
		case "layout":
			layout, err := model.PlanRank(c.topology, c.rank, plan)
			if err != nil {
				return "", err
			}
			defer layout.Close()
			return layout.JSON()
		case "world":
			return model.PlanWorldJSON(c.topology, plan)
		default:
			return model.CheckJSON(c.topology, plan, options)
		}
	}()
	var e *Error
	switch {
	case err == nil:
		return text, nil
	case errors.As(err, &e):
		out := fmt.Sprintf("error[%s] %d: %s\n", e.Name, int32(e.Code), e.Message)
		if len(e.Problems) > 1 {
			orDash := func(s string) string {
				if s == "" {
					return "-"
				}
				return s
			}
			for i, p := range e.Problems {
				out += fmt.Sprintf("problem %d: error[%s] %d group %s tensor %s: %s\n",
					i, p.Name, int32(p.Code), orDash(p.Group), orDash(p.Tensor), p.Message)
			}
		}
		return out, nil
	default:
		return "", err
	}
}

func TestVectors(t *testing.T) {
	dir := vectorsDir(t)
	if _, err := os.Stat(filepath.Join(dir, "expected")); errors.Is(err, os.ErrNotExist) {
		t.Skipf("SKIP: %s does not exist yet (the shared vectors are not generated); no case ran",
			filepath.Join(dir, "expected"))
	}
	f, err := os.Open(filepath.Join(dir, "cases.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []vectorCase
	names := map[string]bool{}
	scanner := bufio.NewScanner(f)
	for number := 1; scanner.Scan(); number++ {
		line := strings.TrimSpace(scanner.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c, err := parseVectorCase(line)
		if err != nil {
			t.Fatalf("cases.txt:%d: %v", number, err)
		}
		if names[c.name] {
			t.Fatalf("cases.txt:%d: case %s repeated", number, c.name)
		}
		names[c.name] = true
		cases = append(cases, c)
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("cases.txt holds no case")
	}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, "expected", c.name+".out"))
			if err != nil {
				t.Fatal(err)
			}
			got, err := runVectorCase(dir, c)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				at := 0
				for at < len(got) && at < len(want) && got[at] == want[at] {
					at++
				}
				t.Errorf("output differs from expected/%s.out at byte %d (got %d bytes, want %d):\ngot  %q\nwant %q",
					c.name, at, len(got), len(want), excerpt(got, at), excerpt(string(want), at))
			}
		})
	}
	t.Logf("%d vector cases ran", len(cases))
}

func excerpt(s string, at int) string {
	start, end := at-40, at+80
	if start < 0 {
		start = 0
	}
	if end > len(s) {
		end = len(s)
	}
	if start > end {
		return ""
	}
	return s[start:end]
}

func TestParseVectorCase(t *testing.T) {
	c, err := parseVectorCase("name=a.b-1 op=check groups=inputs/x.groups.json tp=2 pp=0 ep=3 dp=4 " +
		"policy=replicate-unsupported residency=inputs/r.residency.json device_budget=18446744073709551615 " +
		"pp_layers=19,21,0,18446744073709551615")
	want := vectorCase{name: "a.b-1", op: "check", groups: "inputs/x.groups.json",
		residency: "inputs/r.residency.json", topology: ParallelTopology{2, 0, 3, 4},
		pipelineLayers: []uint64{19, 21, 0, 18446744073709551615},
		policy:         PolicyReplicateUnsupported, deviceBudget: 18446744073709551615, hasDeviceBudget: true}
	if err != nil || !reflect.DeepEqual(c, want) {
		t.Errorf("parse = %+v, %v", c, err)
	}
	for _, bad := range []string{
		"name=x op=layout groups=g colour=red",
		"name=x op=plan groups=g",
		"name=X op=layout groups=g",
		"name=x op=layout groups=g tp=-1",
		"name=x op=layout groups=g policy=lenient",
		"name=x op=layout groups=g pp_layers=",
		"name=x op=layout groups=g pp_layers=1,,3",
		"name=x op=layout groups=g pp_layers=1,3,",
		"name=x op=layout groups=g pp_layers=1;3",
		"op=layout groups=g",
	} {
		if _, err := parseVectorCase(bad); err == nil {
			t.Errorf("parse(%q) accepted", bad)
		}
	}
}
