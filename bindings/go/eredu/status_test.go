// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

package eredu

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestStatusTableMatchesHeader checks status_gen.go against
// include/eredu/status.h and the library's eredu_status_name.
func TestStatusTableMatchesHeader(t *testing.T) {
	f, err := os.Open(filepath.Join(repoRoot(t), "include", "eredu", "status.h"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	define := regexp.MustCompile(`^#define (EREDU_(?:OK|E_[A-Z0-9_]+)) (\d+)$`)
	var header []string
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		if m := define.FindStringSubmatch(scanner.Text()); m != nil {
			header = append(header, m[1]+"="+m[2])
		}
	}
	if err := scanner.Err(); err != nil {
		t.Fatal(err)
	}
	var generated []string
	for _, s := range statusTable {
		generated = append(generated, fmt.Sprintf("%s=%d", s.Name, int32(s.Code)))
	}
	if fmt.Sprint(header) != fmt.Sprint(generated) {
		t.Fatalf("status_gen.go is stale (run go generate):\nheader    %v\ngenerated %v", header, generated)
	}
	for _, s := range statusTable {
		if got := s.Code.String(); got != s.Name {
			t.Errorf("eredu_status_name(%d) = %q, generated %q", int32(s.Code), got, s.Name)
		}
		if s.Code == StatusOK {
			if s.Sentinel != nil {
				t.Errorf("EREDU_OK has a sentinel")
			}
			continue
		}
		if s.Sentinel == nil || s.Sentinel.Code != s.Code || s.Sentinel.Name != s.Name {
			t.Errorf("sentinel of %s = %+v", s.Name, s.Sentinel)
		}
	}
	if got := Status(12345).String(); got != "EREDU_E_UNKNOWN" {
		t.Errorf("unknown code name = %q", got)
	}
}

func TestErrorIsComparesCodes(t *testing.T) {
	var err error = &Error{Code: StatusInvalidTensor, Name: "EREDU_E_INVALID_TENSOR", Message: "m"}
	wrapped := fmt.Errorf("context: %w", err)
	if !errors.Is(wrapped, ErrInvalidTensor) {
		t.Error("errors.Is(wrapped, ErrInvalidTensor) = false")
	}
	if errors.Is(wrapped, ErrInvalidGroup) {
		t.Error("errors.Is(wrapped, ErrInvalidGroup) = true")
	}
	var e *Error
	if !errors.As(wrapped, &e) || e.Message != "m" {
		t.Errorf("errors.As = %v", e)
	}
	if got := err.Error(); got != "eredu: EREDU_E_INVALID_TENSOR (101): m" {
		t.Errorf("Error() = %q", got)
	}
	if got := ErrParse.Error(); got != "eredu: EREDU_E_PARSE (6)" {
		t.Errorf("sentinel Error() = %q", got)
	}
}

func TestVersionCheck(t *testing.T) {
	number, text := LibraryVersion()
	if number/10000 != BindingMajor {
		t.Fatalf("loaded library %s (%d) is not major %d", text, number, BindingMajor)
	}
	if err := checkVersion(); err != nil {
		t.Fatal(err)
	}
	if err := checkMajor(number, text); err != nil {
		t.Fatal(err)
	}
	err := checkMajor(10203, "1.2.3")
	var v *VersionError
	if !errors.As(err, &v) || v.Library != 10203 {
		t.Fatalf("checkMajor(10203) = %v", err)
	}
	want := "eredu: loaded liberedu 1.2.3 (version number 10203, major 1) is not supported: " +
		"this Go binding is written for major 0"
	if err.Error() != want {
		t.Errorf("message = %q, want %q", err.Error(), want)
	}
}

// repoRoot is the checkout holding this package (bindings/go/eredu).
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestAnotherMajorIsRefused pretends the loaded library has major 1: every
// call without a handle returns the *VersionError, and the Default* helpers
// (which have no error result) return zero values instead of running the
// library's _init functions on Go memory of the wrong layout.
func TestAnotherMajorIsRefused(t *testing.T) {
	if err := checkVersion(); err != nil {
		t.Fatal(err)
	}
	refused := checkMajor(10203, "1.2.3")
	versionErr = refused
	defer func() { versionErr = nil }()
	var v *VersionError
	calls := map[string]error{}
	_, calls["ModelFromJSON"] = ModelFromJSON([]byte("{}"))
	_, calls["NewParameterGroupSpec"] = NewParameterGroupSpec("g", RoleReplicated, nil)
	_, calls["NewDenseTransferScheduleRange"] = NewDenseTransferScheduleRange(0, 4, 2)
	_, calls["ParameterBankKey.UnitID"] = ParameterBankKey{Unit: 1, Member: 2}.UnitID()
	_, calls["ExpertPass.ParameterBankAccess"] = ExpertPassDecode.ParameterBankAccess()
	calls["LinearFormat.Validate"] = DefaultLinearFormat().Validate()
	for name, err := range calls {
		if !errors.As(err, &v) || err != refused {
			t.Errorf("%s against major 1: %v", name, err)
		}
	}
	if f := DefaultLinearFormat(); f != (LinearFormat{}) {
		t.Errorf("DefaultLinearFormat = %+v", f)
	}
	if c := DefaultOffloadConfig(); c != (OffloadConfig{}) {
		t.Errorf("DefaultOffloadConfig = %+v", c)
	}
	if o := DefaultLayerwiseLoadOptions(); o != (LayerwiseLoadOptions{}) {
		t.Errorf("DefaultLayerwiseLoadOptions = %+v", o)
	}
	if o := DefaultDenseDiskStreamLoadOptions(); o != (DenseDiskStreamLoadOptions{}) {
		t.Errorf("DefaultDenseDiskStreamLoadOptions = %+v", o)
	}
	if o := DefaultParameterBankLoadOptions(); o != (ParameterBankLoadOptions{}) {
		t.Errorf("DefaultParameterBankLoadOptions = %+v", o)
	}
	if p := DefaultParallelLoadRequest(); p != (ParallelLoadRequest{}) {
		t.Errorf("DefaultParallelLoadRequest = %+v", p)
	}
	if o := DefaultFitOptions(); o != (FitOptions{}) {
		t.Errorf("DefaultFitOptions = %+v", o)
	}
}

// TestErrorIsNilTarget: errors.Is with a typed nil *Error target is false
// (it used to dereference the nil target and panic).
func TestErrorIsNilTarget(t *testing.T) {
	_, err := ModelFromJSON(nil)
	assertError(t, err, ErrParse, "invalid JSON: the document is empty")
	var target *Error
	if errors.Is(err, target) {
		t.Errorf("errors.Is(%v, (*Error)(nil)) = true", err)
	}
}
