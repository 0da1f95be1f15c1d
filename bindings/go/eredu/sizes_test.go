// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"bufio"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sizedStructs returns the structs of include/eredu/*.h and
// include/eredu/runtime/*.h that start with `uint32_t struct_size`
// (docs/abi.md, "Sized structs").
func sizedStructs(t *testing.T) map[string]bool {
	include := filepath.Join(repoRoot(t), "include", "eredu")
	planner, err := filepath.Glob(filepath.Join(include, "*.h"))
	if err != nil || len(planner) == 0 {
		t.Fatalf("no headers: %v", err)
	}
	runtime, err := filepath.Glob(filepath.Join(include, "runtime", "*.h"))
	if err != nil || len(runtime) == 0 {
		t.Fatalf("no runtime headers: %v", err)
	}
	headers := append(planner, runtime...)
	open := regexp.MustCompile(`^struct (eredu_\w+) \{$`)
	sized := map[string]bool{}
	for _, header := range headers {
		f, err := os.Open(header)
		if err != nil {
			t.Fatal(err)
		}
		scanner := bufio.NewScanner(f)
		current := ""
		for scanner.Scan() {
			line := strings.TrimSpace(scanner.Text())
			if m := open.FindStringSubmatch(line); m != nil {
				current = m[1]
				continue
			}
			if current == "" || line == "" || strings.HasPrefix(line, "/*") || strings.HasPrefix(line, "*") {
				continue
			}
			if line == "uint32_t struct_size;" {
				sized[current] = true
			}
			current = ""
		}
		f.Close()
		if err := scanner.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if len(sized) < 30 {
		t.Fatalf("found only %d sized structs in the headers", len(sized))
	}
	return sized
}

// cName returns name when e is C.name.
func cName(e ast.Expr) string {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if x, ok := sel.X.(*ast.Ident); ok && x.Name == "C" {
		return sel.Sel.Name
	}
	return ""
}

// TestEveryStructSizeIsTheCSize checks the package source: every sized
// struct handed to the library carries struct_size = C.sizeof_<its type>
// (the size of the C struct this package is compiled against): each
// eredu_<T>_init call passes C.sizeof_eredu_<T>, each C.eredu_<T>{...}
// literal sets struct_size: C.sizeof_eredu_<T>, each `var x C.eredu_<T>` is
// initialized by eredu_<T>_init(&x, ...), and C memory allocated with
// C.sizeof_eredu_<T> is used as an eredu_<T>.
func TestEveryStructSizeIsTheCSize(t *testing.T) {
	sized := sizedStructs(t)
	fset, funcs := packageFuncs(t)
	used := map[string]bool{}
	for _, fn := range funcs {
		checkStructSizes(t, fset, fn, sized, used)
	}
	if len(used) < 25 {
		t.Fatalf("only %d sized structs found in the source; the check is not finding them", len(used))
	}
}

func checkStructSizes(t *testing.T, fset *token.FileSet, fn *ast.FuncDecl, sized, used map[string]bool) {
	at := func(n ast.Node) string { return fset.Position(n.Pos()).String() }
	allocated := map[string]string{} // variable -> struct of C.sizeof_ it was allocated with
	initialized := map[string]bool{} // variables given to an _init call by address
	var declared []*ast.ValueSpec
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if name := cName(n.Fun); strings.HasSuffix(name, "_init") && sized[strings.TrimSuffix(name, "_init")] {
				typ := strings.TrimSuffix(name, "_init")
				used[typ] = true
				if len(n.Args) != 3 || cName(n.Args[1]) != "sizeof_"+typ {
					t.Errorf("%s: %s does not pass C.sizeof_%s", at(n), name, typ)
				}
				if u, ok := n.Args[0].(*ast.UnaryExpr); ok && u.Op == token.AND {
					if id, ok := u.X.(*ast.Ident); ok {
						initialized[id.Name] = true
					}
				}
			}
			// (*C.T)(p) where p came from alloc(C.sizeof_U): T must be U.
			if paren, ok := n.Fun.(*ast.ParenExpr); ok && len(n.Args) == 1 {
				if star, ok := paren.X.(*ast.StarExpr); ok {
					if typ := cName(star.X); sized[typ] {
						if id, ok := n.Args[0].(*ast.Ident); ok && allocated[id.Name] != "" && allocated[id.Name] != typ {
							t.Errorf("%s: C memory of C.sizeof_%s used as %s", at(n), allocated[id.Name], typ)
						}
					}
				}
			}
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sizeof" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "unsafe" && len(n.Args) == 1 {
					if lit, ok := n.Args[0].(*ast.CompositeLit); ok && sized[cName(lit.Type)] {
						t.Errorf("%s: unsafe.Sizeof(C.%s{}): use C.sizeof_%s", at(n), cName(lit.Type), cName(lit.Type))
					}
				}
			}
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && len(n.Lhs) >= 1 {
				if call, ok := n.Rhs[0].(*ast.CallExpr); ok && len(call.Args) == 1 {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "alloc" {
						if size := cName(call.Args[0]); strings.HasPrefix(size, "sizeof_") {
							if id, ok := n.Lhs[0].(*ast.Ident); ok {
								allocated[id.Name] = strings.TrimPrefix(size, "sizeof_")
							}
						}
					}
				}
			}
		case *ast.CompositeLit:
			typ := cName(n.Type)
			if !sized[typ] {
				return true
			}
			used[typ] = true
			ok := false
			for _, e := range n.Elts {
				if kv, isKV := e.(*ast.KeyValueExpr); isKV {
					if key, isIdent := kv.Key.(*ast.Ident); isIdent && key.Name == "struct_size" {
						ok = cName(kv.Value) == "sizeof_"+typ
					}
				}
			}
			if !ok {
				t.Errorf("%s: C.%s{...} without struct_size: C.sizeof_%s", at(n), typ, typ)
			}
		case *ast.ValueSpec:
			if len(n.Values) == 0 && sized[cName(n.Type)] {
				declared = append(declared, n)
			}
		}
		return true
	})
	for _, spec := range declared {
		for _, name := range spec.Names {
			if !initialized[name.Name] {
				t.Errorf("%s: var %s C.%s is never given to %s_init", at(spec), name.Name, cName(spec.Type), cName(spec.Type))
			}
		}
	}
}

// TestOneCallPerRecord checks the package source: the accessors that read a
// record (a tensor, a layout's, group's, plan's or request's info) make one
// library call.
func TestOneCallPerRecord(t *testing.T) {
	want := map[string]int{
		"LocalModelLayout.TensorAt":  1,
		"LocalModelLayout.Info":      1,
		"LocalModelLayout.Len":       1,
		"LocalModelLayout.Topology":  1,
		"ParameterGroupSpec.Info":    1,
		"OffloadPlan.Info":           1,
		"OffloadPlan.Len":            1,
		"NormalizedLoadRequest.Info": 1,
		"ModelDescription.PlanRank":  1,
		// The plain fields, then the quantization when there is one.
		"LayerwiseModelMetadata.Desc": 2,
	}
	_, funcs := packageFuncs(t)
	found := map[string]int{}
	for _, fn := range funcs {
		if fn.Recv == nil || len(fn.Recv.List) != 1 {
			continue
		}
		recv := fn.Recv.List[0].Type
		if star, ok := recv.(*ast.StarExpr); ok {
			recv = star.X
		}
		id, ok := recv.(*ast.Ident)
		if !ok {
			continue
		}
		key := id.Name + "." + fn.Name.Name
		if _, ok := want[key]; !ok {
			continue
		}
		calls := 0
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && strings.HasPrefix(cName(call.Fun), "eredu_") {
				calls++
			}
			return true
		})
		found[key] = calls
	}
	for key, n := range want {
		if got, ok := found[key]; !ok || got != n {
			t.Errorf("%s makes %d library calls (found: %v), want %d", key, got, ok, n)
		}
	}
}
