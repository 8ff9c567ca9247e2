package main

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestAttractorsOutOfOrder calls the runs of the attractors sweep out of
// order on one job and compares each with the run computed by a fresh
// job: a run depends on its seed path only.
func TestAttractorsOutOfOrder(t *testing.T) {
	var c config
	if err := json.Unmarshal([]byte(attractorsCfg), &c); err != nil {
		t.Fatal(err)
	}
	prepare := func() job {
		j, err := newAttractors(c.Params, c.Seed, c.Runs)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	shared := prepare()
	for _, k := range []int{5, 2, 7, 7, 0, 9} {
		got, err := shared.Run(k)
		if err != nil {
			t.Fatal(err)
		}
		want, err := prepare().Run(k)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("run %d after others: %v, alone: %v", k, got, want)
		}
	}
}
