package sweep_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/loadlab/loadlab/sweep"
)

// Two shards of a five-run sweep, merged back in run order.
func Example() {
	dir, _ := os.MkdirTemp("", "sweep")
	defer os.RemoveAll(dir)
	p := sweep.Plan{Name: "squares", Config: map[string]int{"power": 2}, Seed: 1, Runs: 5}
	square := func(r int) ([]float64, error) { return []float64{float64(r * r)}, nil }
	var files []string
	for i := range 2 {
		s, _ := sweep.ParseShard(fmt.Sprintf("%d/2", i))
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i))
		if _, err := sweep.RunShard(p, s, f, square, nil); err != nil {
			fmt.Println(err)
			return
		}
		files = append(files, f)
	}
	m, err := sweep.Merge(files...)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range m.Records {
		fmt.Println(r.Run, r.SeedPath, r.Floats())
	}
	_, err = sweep.ParseShard("2/2")
	fmt.Println(err)
	// Output:
	// 0 [1 0] [0]
	// 1 [1 1] [1]
	// 2 [1 2] [4]
	// 3 [1 3] [9]
	// 4 [1 4] [16]
	// sweep: shard spec "2/2": i = 2, want i < N = 2: invalid argument
}
