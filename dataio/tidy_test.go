package dataio

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
)

type point struct {
	X     float64
	Label string
	Cost  loadlab.Estimate
	Runs  []int // skipped: not one value per row
	NPass int
}

func TestWriteTidy(t *testing.T) {
	rows := []point{
		{X: 1, Label: "a,b", Cost: loadlab.Estimate{Mean: 2, Lo: 1.5, Hi: 2.5, StdErr: 0.25, N: 10}, NPass: 3},
		{X: 0.1, Label: "c", Cost: loadlab.Estimate{Mean: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1), N: 1}},
	}
	var b bytes.Buffer
	if err := WriteTidy(&b, rows); err != nil {
		t.Fatal(err)
	}
	want := "x,label,cost_mean,cost_lo,cost_hi,cost_stderr,cost_n,n_pass\n" +
		"1,\"a,b\",2,1.5,2.5,0.25,10,3\n" +
		"0.1,c,NaN,-Inf,+Inf,0,1,0\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// Pointers work too, and the numbers read back exactly.
	b.Reset()
	if err := WriteTidy(&b, []*point{&rows[0]}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "x,label,") {
		t.Errorf("pointer rows: %q", b.String())
	}
	for _, bad := range []any{3, []int{1}, []*point{nil}} {
		if err := WriteTidy(&b, bad); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("WriteTidy(%T): %v", bad, err)
		}
	}
}

type series struct {
	RTotal, Over []float64
	Short        []float64 // other length: skipped
	Steps        int       // not a column
}

func TestWriteColumns(t *testing.T) {
	s := &series{RTotal: []float64{10, 11}, Over: []float64{0, 0.5}, Short: []float64{1}, Steps: 2}
	var b bytes.Buffer
	if err := WriteColumns(&b, s, "step"); err != nil {
		t.Fatal(err)
	}
	if want := "step,r_total,over\n0,10,0\n1,11,0.5\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	tb, err := ReadTable(&b, nil)
	if err != nil || tb.Rows[1][2] != 0.5 {
		t.Errorf("tidy CSV does not read back: %v", err)
	}
	if err := WriteColumns(&b, 3, "i"); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("non-struct: %v", err)
	}
}
