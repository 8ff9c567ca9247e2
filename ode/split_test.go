package ode

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// coupled is y' = c − M tanh(y), n components coupled through a dense
// random M: a Split with Map u = tanh(y) (component-wise) and Rows
// dy_i = c_i − Σ_j M_ij u_j, and the Func that runs both over [0, n).
type coupled struct {
	n    int
	m, c []float64
	u    [2][]float64 // the workspaces: u = tanh(y)
}

func newCoupled(n int, seed uint64) *coupled {
	r := rand.New(rand.NewPCG(seed, 3))
	s := &coupled{n: n, m: make([]float64, n*n), c: make([]float64, n)}
	for i := range s.m {
		s.m[i] = r.Float64() / float64(n)
	}
	for i := range s.c {
		s.c[i] = r.Float64() - 0.3
	}
	s.u = [2][]float64{make([]float64, n), make([]float64, n)}
	return s
}

func (s *coupled) mapRange(buf int, y []float64, lo, hi int) {
	for i := lo; i < hi; i++ {
		s.u[buf][i] = math.Tanh(y[i])
	}
}

func (s *coupled) rowsRange(buf int, dy []float64, _ float64, lo, hi int) {
	u := s.u[buf]
	for i := lo; i < hi; i++ {
		sum := 0.0
		for j, v := range s.m[i*s.n : (i+1)*s.n] {
			sum += v * u[j]
		}
		dy[i] = s.c[i] - sum
	}
}

func (s *coupled) split(grain, workers int) *Split {
	return &Split{Map: s.mapRange, Rows: s.rowsRange, Grain: grain, Workers: workers}
}

func (s *coupled) f(dy []float64, t float64, y []float64) {
	s.mapRange(0, y, 0, s.n)
	s.rowsRange(0, dy, t, 0, s.n)
}

func TestSplitMatchesFunc(t *testing.T) {
	// The split stepper takes the same steps and computes the same bits
	// as the stepper of the equivalent Func, at every accepted step and in
	// the dense output, for sizes that are not multiples of the pieces,
	// any grain and any number of goroutines (GOMAXPROCS 1 and 2); after
	// each step workspace 1 holds Map(State()) (the FSAL evaluation).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, n := range []int{1, 63, 200} {
		s := newCoupled(n, uint64(n))
		y0 := make([]float64, n)
		for i := range y0 {
			y0[i] = float64(i%7) - 3
		}
		set := &Settings{AbsTol: 1e-9, RelTol: 1e-9}
		ref, err := NewDormandPrince(s.f, 0, y0, set)
		require.NoError(t, err)
		var want [][]float64
		var dense [][]float64
		for ref.Time() < 20 {
			require.NoError(t, ref.Step(20))
			want = append(want, append([]float64(nil), ref.State()...))
			dense = append(dense, ref.Interpolate(nil, (ref.PrevTime()+ref.Time())/2))
		}
		for _, procs := range []int{1, 2} {
			runtime.GOMAXPROCS(procs)
			for _, c := range []struct{ grain, workers int }{{0, 0}, {16, 1}, {16, 3}, {64, 2}, {208, 2}} {
				d, err := NewDormandPrinceSplit(s.split(c.grain, c.workers), 0, y0, set)
				require.NoError(t, err)
				for k := range want {
					require.NoError(t, d.Step(20))
					require.Equal(t, want[k], d.State(), "n = %d, %+v, step %d", n, c, k)
					require.Equal(t, dense[k], d.Interpolate(nil, (d.PrevTime()+d.Time())/2), "dense output, step %d", k)
					u := make([]float64, n)
					for i, v := range d.State() {
						u[i] = math.Tanh(v)
					}
					require.Equal(t, u, s.u[1], "workspace 1 after step %d", k)
				}
				assert.Equal(t, 20.0, d.Time())
				assert.Equal(t, ref.Stats(), d.Stats(), "n = %d, %+v", n, c)
			}
		}
	}
}

func TestSolveStepsSplit(t *testing.T) {
	// SolveStepsSplit emits what SolveStepsFunc emits for the same system.
	s := newCoupled(130, 9)
	y0 := make([]float64, 130)
	var want, got [][]float64
	collect := func(out *[][]float64) func(float64, []float64) error {
		return func(tt float64, y []float64) error {
			*out = append(*out, append([]float64{tt}, y...))
			return nil
		}
	}
	r1, err := SolveStepsFunc(s.f, 0, y0, 5, nil, collect(&want))
	require.NoError(t, err)
	r2, err := SolveStepsSplit(s.split(0, 2), 0, y0, 5, nil, collect(&got))
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, r1.Stats, r2.Stats)
	assert.Equal(t, loadlab.Success, r2.Status)
}

func TestSplitContract(t *testing.T) {
	s := newCoupled(10, 1)
	y0 := make([]float64, 10)
	for _, sp := range []*Split{s.split(-16, 0), s.split(24, 0), s.split(0, -1)} {
		_, err := NewDormandPrinceSplit(sp, 0, y0, nil)
		assert.True(t, errors.Is(err, loadlab.ErrInvalid), "%+v: %v", *sp, err)
	}
	_, err := NewDormandPrinceSplit(s.split(0, 0), math.NaN(), y0, nil)
	assert.True(t, errors.Is(err, loadlab.ErrInvalid))
	_, err = SolveStepsSplit(s.split(0, 0), 0, y0, 0, nil, func(float64, []float64) error { return nil })
	assert.True(t, errors.Is(err, loadlab.ErrInvalid), "t1 = t0")
	assert.Panics(t, func() { _, _ = NewDormandPrinceSplit(nil, 0, y0, nil) })
	assert.Panics(t, func() { _, _ = NewDormandPrinceSplit(&Split{Map: s.mapRange}, 0, y0, nil) })
	assert.Panics(t, func() { _, _ = SolveStepsSplit(s.split(0, 0), 0, y0, 1, nil, nil) })
	// A panic in a pass reaches the caller.
	boom := &Split{Map: s.mapRange, Rows: func(int, []float64, float64, int, int) { panic("boom") }, Workers: 2}
	d, err := NewDormandPrinceSplit(boom, 0, y0, nil)
	require.NoError(t, err)
	assert.PanicsWithValue(t, "boom", func() { _ = d.Step(1) })
}
