package dataio

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
)

type jsonResult struct {
	Status   loadlab.Status
	Rho      float64
	Est      loadlab.Estimate
	Values   []float64
	Tagged   int   `json:"tagged_name"`
	Skip     int   `json:"-"`
	Empty    []int `json:"empty,omitempty"`
	hidden   int
	Children map[int]*jsonResult
}

func TestMarshalJSON(t *testing.T) {
	r := jsonResult{
		Status: loadlab.IterationLimit, Rho: math.Inf(1),
		Est:    loadlab.Estimate{Mean: 1, Lo: math.NaN(), Hi: math.NaN(), N: 1},
		Values: []float64{1, math.NaN()}, Tagged: 3, Skip: 4, hidden: 5,
		Children: map[int]*jsonResult{2: {Rho: 0.5}},
	}
	b, err := MarshalJSON(&r)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, b)
	}
	if got["Status"] != "IterationLimit" || got["Rho"] != nil || got["tagged_name"] != 3.0 {
		t.Errorf("scalars wrong: %s", b)
	}
	for _, k := range []string{"Skip", "hidden", "empty"} {
		if _, ok := got[k]; ok {
			t.Errorf("%s written: %s", k, b)
		}
	}
	est := got["Est"].(map[string]any)
	if est["mean"] != 1.0 || est["lo"] != nil || est["n"] != 1.0 {
		t.Errorf("estimate wrong (json tags, NaN as null): %s", b)
	}
	if v := got["Values"].([]any); v[0] != 1.0 || v[1] != nil {
		t.Errorf("slice wrong: %s", b)
	}
	if c := got["Children"].(map[string]any)["2"].(map[string]any); c["Rho"] != 0.5 {
		t.Errorf("map wrong: %s", b)
	}
	// The encoding is stable: the same value gives the same bytes.
	b2, _ := MarshalJSON(&r)
	if string(b) != string(b2) {
		t.Error("encoding not deterministic")
	}
	if _, err := MarshalJSON(struct{ F func() }{func() {}}); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("func field: %v", err)
	}
}

// A NaN in a map is written as null, as in a struct.
func TestMarshalJSONMapNaN(t *testing.T) {
	b, err := MarshalJSON(map[string]float64{"a": 1, "b": math.NaN()})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"a":1,"b":null}` {
		t.Errorf("got %s", got)
	}
}
