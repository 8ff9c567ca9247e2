package main

import (
	"github.com/loadlab/loadlab/cholesky"
	"github.com/spf13/pflag"
)

// sparseFlags are the exact sparse path's limits on the graph commands
// (spectral.NewResistanceWith): a larger mesh than the default
// cholesky.DefaultMaxFlops allows, with the ordering fixed to save the
// other one's count.
type sparseFlags struct {
	maxFlops float64
	ordering string
	relax    int
}

func (f *sparseFlags) register(fs *pflag.FlagSet) {
	fs.Float64Var(&f.maxFlops, "max-flops", 0, "the exact sparse path's limit on the factor's predicted flops (0: the default 5e10; the 3163 × 3163 torus needs 1e12)")
	fs.StringVar(&f.ordering, "ordering", "auto", "the sparse factor's ordering: auto (the cheaper of amd and nd by their counts), amd or nd")
	fs.IntVar(&f.relax, "relax", 0, "the widest supernode made by merging small ones, with explicit zeros (0: the default 48; 1: no merging)")
}

// settings returns the cholesky settings the flags ask for, or a usage
// error naming a bad flag.
func (f *sparseFlags) settings() (*cholesky.Settings, error) {
	set := &cholesky.Settings{MaxFlops: f.maxFlops, Relax: f.relax}
	switch f.ordering {
	case "auto":
	case "amd":
		set.Ordering = cholesky.AMD
	case "nd":
		set.Ordering = cholesky.NestedDissection
	default:
		return nil, usagef("--ordering = %q: want auto, amd or nd", f.ordering)
	}
	if f.relax < 0 {
		return nil, usagef("--relax = %d: want ≥ 0 (0 for the default, 1 for no merging)", f.relax)
	}
	if !(f.maxFlops >= 0) {
		return nil, usagef("--max-flops = %v: want ≥ 0 (0 for the default)", f.maxFlops)
	}
	return set, nil
}
