package graphio

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/loadlab/loadlab"
)

const mtxSym = "%%MatrixMarket matrix coordinate real symmetric\n"

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc).
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// A size line is data the file has not yet proved: a short file that
// declares 5·10⁷ nodes fails at once, allocating nothing of their size
// (guards: the declared nodes were allocated first, 89 s and an
// out-of-memory crash).
func TestMatrixMarketDeclaredSizes(t *testing.T) {
	for _, c := range []struct {
		name, src string
		sentinel  error
		field     string
	}{
		{"5e7 nodes, no entries", mtxSym + "50000000 50000000 0\n", loadlab.ErrTooLarge, "rows"},
		{"5e7 nodes, one entry", mtxSym + "50000000 50000000 1\n2 1 1\n", loadlab.ErrTooLarge, "rows"},
		{"5e7 nodes, 2.5e7 entries", mtxSym + "50000000 50000000 25000000\n2 1 1\n", loadlab.ErrTooLarge, "size line"},
		{"1e7 nodes, 5e6 entries missing", mtxSym + "10000000 10000000 5000000\n2 1 1\n", loadlab.ErrInvalid, "entries"},
		{"entries past int", mtxSym + "2 2 99999999999999999999\n", loadlab.ErrTooLarge, "size line"},
	} {
		var err error
		start := time.Now()
		a := allocated(func() { _, err = ReadMatrixMarket(strings.NewReader(c.src), nil) })
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, c.sentinel) || pe.Field != c.field {
			t.Errorf("%s: got %v, want a *ParseError on %q wrapping %v", c.name, err, c.field, c.sentinel)
		}
		// The scanner's 64 KiB buffer and a few small values; an
		// allocation for the declared nodes would be ≥ 400 MB.
		if a > 1<<20 {
			t.Errorf("%s: allocated %d bytes before failing, want ≤ 1 MiB", c.name, a)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: took %v", c.name, el) // generous for a loaded machine
		}
	}
}

// Isolated nodes are read up to Options.MaxIsolated, counted after the
// entries.
func TestMatrixMarketIsolated(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s100 100 45\n", mtxSym)
	for i := 2; i <= 10; i++ {
		for j := 1; j < i; j++ {
			fmt.Fprintf(&b, "%d %d 1\n", i, j)
		}
	}
	src := b.String()
	_, err := ReadMatrixMarket(strings.NewReader(src), &Options{MaxIsolated: 10})
	if !errors.Is(err, loadlab.ErrTooLarge) || !strings.Contains(err.Error(), "90 of the 100 nodes") {
		t.Errorf("90 isolated nodes with MaxIsolated 10: %v", err)
	}
	d, err := ReadMatrixMarket(strings.NewReader(src), &Options{MaxIsolated: 90})
	if err != nil || d.Graph.Order() != 100 || len(d.Components) != 91 {
		t.Errorf("MaxIsolated 90: %v", err)
	}
}

func TestMatrixMarketEntries(t *testing.T) {
	gen := "%%MatrixMarket matrix coordinate real general\n"
	// KeepFirst keeps the first of a repeated entry (guards: summed) and
	// counts it; the diagonal follows the same rule (guards: summed).
	d := mustRead(t, mtxRead, mtxSym+"3 3 3\n2 1 1\n2 1 5\n3 2 2\n", &Options{Duplicates: KeepFirst})
	if d.Graph.Weight(0, 1) != 1 || d.Merged != 1 {
		t.Errorf("KeepFirst: w(1,2) = %v, Merged %d, want 1, 1", d.Graph.Weight(0, 1), d.Merged)
	}
	d = mustRead(t, mtxRead, mtxSym+"3 3 3\n2 1 1\n2 1 5\n3 2 2\n", &Options{Duplicates: SumDuplicates})
	if d.Graph.Weight(0, 1) != 6 || d.Merged != 1 {
		t.Errorf("SumDuplicates: w(1,2) = %v, Merged %d, want 6, 1", d.Graph.Weight(0, 1), d.Merged)
	}
	if _, err := ReadMatrixMarket(strings.NewReader(mtxSym+"2 2 3\n1 1 1\n1 1 1\n2 1 -2\n"), &Options{Matrix: Laplacian}); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("repeated diagonal entry: %v, want ErrInvalid", err)
	}
	// Zero entries are not edges, and counted.
	d = mustRead(t, mtxRead, gen+"3 3 4\n1 2 0\n2 1 0\n3 1 2\n1 3 2\n", nil)
	if d.Graph.Size() != 1 || d.Zeros != 2 {
		t.Errorf("zeros: %d edges, Zeros %d, want 1, 2", d.Graph.Size(), d.Zeros)
	}
	// A pattern matrix is unweighted; DefaultWeight weighs it.
	pat := "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n"
	d = mustRead(t, mtxRead, pat, nil)
	if d.Graph.Weight(0, 1) != 1 || !d.Unweighted || d.Defaulted != 0 {
		t.Errorf("pattern: weight %v, Unweighted %v, Defaulted %d", d.Graph.Weight(0, 1), d.Unweighted, d.Defaulted)
	}
	d = mustRead(t, mtxRead, pat, &Options{DefaultWeight: 2.5})
	if d.Graph.Weight(1, 2) != 2.5 || d.Defaulted != 2 {
		t.Errorf("pattern with DefaultWeight: weight %v, Defaulted %d", d.Graph.Weight(1, 2), d.Defaulted)
	}
	for name, c := range map[string]struct {
		src  string
		opts *Options
	}{
		// Guards: 1.5 read from an integer matrix.
		"integer field":     {"%%MatrixMarket matrix coordinate integer symmetric\n2 2 1\n2 1 1.5\n", nil},
		"pattern Laplacian": {pat, &Options{Matrix: Laplacian}},
		"repeated entry":    {mtxSym + "2 2 2\n2 1 1\n2 1 1\n", nil},
	} {
		if _, err := ReadMatrixMarket(strings.NewReader(c.src), c.opts); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}
