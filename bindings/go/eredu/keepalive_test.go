// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// TestEveryHandleCallKeepsAlive checks the package source: in every function
// that takes a C pointer from a handle (h, err := x.handle()), every later
// call into the library passing h (any later call, when the pointer is not
// stored in a plain variable) is followed by runtime.KeepAlive(x) (or of the
// slice x ranges over), so no finalizer can free the object during the call. The GC test
// below can only catch a missing KeepAlive by chance; this one always does.
func TestEveryHandleCallKeepsAlive(t *testing.T) {
	fset, funcs := packageFuncs(t)
	checked := 0
	for _, fn := range funcs {
		checked += checkKeepAlive(t, fset, fn)
	}
	if checked < 20 {
		t.Fatalf("only %d functions use handles; the check is not finding them", checked)
	}
}

func checkKeepAlive(t *testing.T, fset *token.FileSet, fn *ast.FuncDecl) int {
	ranges := map[string]string{} // range value variable -> ranged expression
	type use struct {
		name string    // the handle's Go variable
		cvar string    // the variable receiving its C pointer, "" when not a plain variable
		pos  token.Pos // of the handle() call
	}
	type cCall struct {
		pos  token.Pos
		args map[string]bool // identifiers in the arguments
	}
	var handles []use
	var cCalls []cCall
	cvars := map[token.Pos]string{} // handle() call -> variable assigned from it
	keepAlive := map[string][]token.Pos{}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && len(n.Lhs) > 0 {
				if id, ok := n.Lhs[0].(*ast.Ident); ok {
					cvars[n.Rhs[0].Pos()] = id.Name
				}
			}
		case *ast.RangeStmt:
			if v, ok := n.Value.(*ast.Ident); ok {
				if x, ok := n.X.(*ast.Ident); ok {
					ranges[v.Name] = x.Name
				}
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch {
			case sel.Sel.Name == "handle" && len(n.Args) == 0:
				handles = append(handles, use{x.Name, cvars[n.Pos()], n.Pos()})
			case x.Name == "C" && strings.HasPrefix(sel.Sel.Name, "eredu_"):
				args := map[string]bool{}
				for _, a := range n.Args {
					ast.Inspect(a, func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok {
							args[id.Name] = true
						}
						return true
					})
				}
				cCalls = append(cCalls, cCall{n.Pos(), args})
			case x.Name == "runtime" && sel.Sel.Name == "KeepAlive" && len(n.Args) == 1:
				if arg, ok := n.Args[0].(*ast.Ident); ok {
					keepAlive[arg.Name] = append(keepAlive[arg.Name], n.Pos())
				}
			}
		}
		return true
	})
	for _, h := range handles {
		kept := append(keepAlive[h.name], keepAlive[ranges[h.name]]...)
		for _, call := range cCalls {
			if call.pos < h.pos || (h.cvar != "" && !call.args[h.cvar]) {
				continue
			}
			covered := false
			for _, k := range kept {
				if k > call.pos {
					covered = true
					break
				}
			}
			if !covered {
				t.Errorf("%s: %s calls the library at %s with %s's handle and no runtime.KeepAlive(%s) after it",
					fset.Position(fn.Pos()), fn.Name.Name, fset.Position(call.pos), h.name, h.name)
			}
		}
	}
	if len(handles) > 0 {
		return 1
	}
	return 0
}

// TestEveryHandleFreeCallChecksVersion checks the package source: every
// exported function or method that calls the library without a handle
// calls checkVersion first (LibraryVersion, Status.String and Close are the
// exceptions); unexported helpers are reached only from such functions.
func TestEveryHandleFreeCallChecksVersion(t *testing.T) {
	fset, funcs := packageFuncs(t)
	exempt := map[string]bool{"LibraryVersion": true, "String": true, "Close": true}
	for _, fn := range funcs {
		if !fn.Name.IsExported() || exempt[fn.Name.Name] {
			continue
		}
		callsC, checked := false, false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch f := call.Fun.(type) {
			case *ast.Ident:
				checked = checked || f.Name == "checkVersion"
			case *ast.SelectorExpr:
				checked = checked || f.Sel.Name == "handle"
				if x, ok := f.X.(*ast.Ident); ok && x.Name == "C" && strings.HasPrefix(f.Sel.Name, "eredu_") {
					callsC = true
				}
			}
			return true
		})
		if callsC && !checked {
			t.Errorf("%s: %s calls the library without checkVersion", fset.Position(fn.Pos()), fn.Name.Name)
		}
	}
}
