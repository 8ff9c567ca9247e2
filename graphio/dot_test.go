package graphio

import (
	"errors"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
)

// DOT weights: an edge's own attribute, else a top-level "edge [...]"
// default made before it (guards: the default statement was ignored and
// such edges weighed 1), else Options.DefaultWeight.
func TestDOTWeights(t *testing.T) {
	for _, c := range []struct {
		name, src  string
		opts       *Options
		want       map[[2]string]float64
		defaulted  int
		unweighted bool
	}{
		{"edge default", `graph { edge [weight=3]; a -- b; b -- c [weight=2] }`, nil, map[[2]string]float64{{"a", "b"}: 3, {"b", "c"}: 2}, 0, false},
		{"default after", `graph { a -- b [weight=1]; edge [weight=5]; b -- c }`, nil, map[[2]string]float64{{"a", "b"}: 1, {"b", "c"}: 5}, 0, false},
		{"chain", `graph { a -- b -- c [weight=4] }`, nil, map[[2]string]float64{{"a", "b"}: 4, {"b", "c"}: 4}, 0, false},
		{"DefaultWeight", `graph { a -- b [weight=2]; b -- c }`, &Options{DefaultWeight: 0.5}, map[[2]string]float64{{"a", "b"}: 2, {"b", "c"}: 0.5}, 1, false},
		{"unweighted", `graph { a -- b; b -- c }`, &Options{DefaultWeight: 1}, map[[2]string]float64{{"a", "b"}: 1, {"b", "c"}: 1}, 2, true},
		{"named attribute", `graph { a -- b [cap=7] }`, &Options{Weight: "cap"}, map[[2]string]float64{{"a", "b"}: 7}, 0, false},
	} {
		d, err := ReadDOT(strings.NewReader(c.src), c.opts)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := labelled(d); !sameEdges(got, c.want) || d.Defaulted != c.defaulted || d.Unweighted != c.unweighted {
			t.Errorf("%s: weights %v Defaulted %d Unweighted %v, want %v %d %v", c.name, got, d.Defaulted, d.Unweighted, c.want, c.defaulted, c.unweighted)
		}
	}
}

// DOT node labels from an attribute; "\N" is graphviz's name for the id.
func TestDOTLabels(t *testing.T) {
	d := mustRead(t, dotRead, `graph { a [label="Paris"]; b [label=London]; c [label="\N"]; a -- b -- c [weight=1] }`, &Options{Label: "label"})
	if strings.Join(d.Labels, ",") != "Paris,London,c" {
		t.Errorf("labels %q, want Paris,London,c", d.Labels)
	}
	d = mustRead(t, dotRead, `graph { node [label="\N"]; a; b [label=B]; a -- b [weight=1] }`, &Options{Label: "label"})
	if strings.Join(d.Labels, ",") != "a,B" {
		t.Errorf("labels %q, want a,B", d.Labels)
	}
}

func TestDOTErrors(t *testing.T) {
	for _, c := range []struct {
		name, src   string
		opts        *Options
		elem, field string
		sentinel    error
		inMsg       string
	}{
		// Guards: every edge silently weighed 1.
		{"no weight attribute", `graph { a -- b [color=red]; b -- c }`, nil, "edge a -- b", "weight", loadlab.ErrInvalid, "edge attributes in the file: color"},
		// Guards: weight 1 beside weighted edges.
		{"edge without weight", `graph { a -- b [weight="1e10"]; b -- c }`, nil, "edge b -- c", "weight", loadlab.ErrInvalid, "no weight"},
		{"default in a subgraph", `graph { subgraph s { edge [weight=3]; a -- b } c -- d [weight=1] }`, nil, "subgraph", "weight", loadlab.ErrInvalid, "inside a subgraph"},
		{"default in an edge's subgraph", `graph { a -- { edge [weight=3]; b c } }`, nil, "subgraph", "weight", loadlab.ErrInvalid, "inside a subgraph"},
		{"two graphs", `graph { a -- b [weight=1] } graph { c -- d [weight=1] }`, nil, "graph", "", loadlab.ErrInvalid, "2 graphs"},
		{"missing label", `graph { a [label=A]; a -- b [weight=1] }`, &Options{Label: "label"}, "node b", "label", loadlab.ErrInvalid, "without this attribute"},
		{"duplicate label", `graph { a [label=A]; b [label=A]; a -- b [weight=1] }`, &Options{Label: "label"}, "node b", "label", loadlab.ErrInvalid, "label also of node a"},
		{"empty weight", `graph { a -- b [weight=""] }`, nil, "edge a -- b", "weight", loadlab.ErrInvalid, "not a number"},
	} {
		_, err := ReadDOT(strings.NewReader(c.src), c.opts)
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, c.sentinel) {
			t.Errorf("%s: got %v, want a *ParseError wrapping %v", c.name, err, c.sentinel)
			continue
		}
		if pe.Elem != c.elem || pe.Field != c.field || !strings.Contains(pe.Msg, c.inMsg) {
			t.Errorf("%s: elem %q field %q msg %q, want %q %q containing %q", c.name, pe.Elem, pe.Field, pe.Msg, c.elem, c.field, c.inMsg)
		}
	}
}

// A DOT document is held in memory with its syntax tree: one longer than
// the budget allows is ErrTooLarge before it is parsed (guards: a
// document past 2 GiB was cut silently and the rest parsed).
func TestDOTTooLong(t *testing.T) {
	defer func(b int) { budget = b }(budget)
	budget = costFixed + 1000*costDOTByte // room for 1000 bytes
	src := "graph {" + strings.Repeat(" a -- b [weight=1];", 60) + " }"
	_, err := ReadDOT(strings.NewReader(src), &Options{Duplicates: SumDuplicates})
	if !errors.Is(err, loadlab.ErrTooLarge) || !strings.Contains(err.Error(), "longer than 1000 bytes") {
		t.Errorf("%d-byte document with room for 1000: %v, want ErrTooLarge", len(src), err)
	}
	if _, err := ReadDOT(strings.NewReader(src[:990-2]+" }"), &Options{Duplicates: SumDuplicates}); errors.Is(err, loadlab.ErrTooLarge) {
		t.Errorf("document within the limit: %v", err)
	}
}
