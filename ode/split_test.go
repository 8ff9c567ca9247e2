package ode

import (
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

// TestSplitPanicReachesCaller: a panic in a pass reaches the caller (bad
// input: validate_test.go).
func TestSplitPanicReachesCaller(t *testing.T) {
	s := newCoupled(10, 1)
	y0 := make([]float64, 10)
	// A panic in a pass reaches the caller.
	boom := &Split{Map: s.mapRange, Rows: func(int, []float64, float64, int, int) { panic("boom") }, Workers: 2}
	d, err := NewDormandPrinceSplit(boom, 0, y0, nil)
	require.NoError(t, err)
	assert.PanicsWithValue(t, "boom", func() { _ = d.Step(1) })
}

// quad is coupled with extra components that influence nothing, q' =
// d + W tanh(y_A) over the first na components: their part of the
// workspace is held at 0, so a Lagger may leave their rows to the end
// of each step. failEvery > 0 makes Held fail on every failEvery-th
// lagging step.
type quad struct {
	n, na     int
	m, c      []float64 // the active block: na × na, na
	w, d      []float64 // the quadrature rows: (n − na) × na, n − na
	u         [7][]float64
	lag       bool // the current step lags
	holds     int  // Hold(true) calls that returned true
	failEvery int
}

func newQuad(n, na int, seed uint64) *quad {
	r := rand.New(rand.NewPCG(seed, 5))
	s := &quad{n: n, na: na, m: make([]float64, na*na), c: make([]float64, na), w: make([]float64, (n-na)*na), d: make([]float64, n-na)}
	for _, v := range [][]float64{s.m, s.w} {
		for i := range v {
			v[i] = r.Float64() / float64(na)
		}
	}
	for _, v := range [][]float64{s.c, s.d} {
		for i := range v {
			v[i] = r.Float64() - 0.3
		}
	}
	for b := range s.u {
		s.u[b] = make([]float64, n)
	}
	return s
}

func (s *quad) mapRange(buf int, y []float64, lo, hi int) {
	for i := lo; i < min(hi, s.na); i++ {
		s.u[buf][i] = math.Tanh(y[i])
	}
}

// row returns f_i from workspace u.
func (s *quad) row(u []float64, t float64, i int) float64 {
	var coef []float64
	var base float64
	if i < s.na {
		coef, base = s.m[i*s.na:(i+1)*s.na], s.c[i]
	} else {
		coef, base = s.w[(i-s.na)*s.na:(i-s.na+1)*s.na], s.d[i-s.na]+math.Cos(t)
	}
	sum := 0.0
	for j, v := range coef {
		sum += v * u[j]
	}
	return base - sum
}

func (s *quad) rowsRange(buf int, dy []float64, t float64, lo, hi int) {
	if s.lag {
		hi = min(hi, s.na)
	}
	for i := lo; i < hi; i++ {
		dy[i] = s.row(s.u[buf], t, i)
	}
}

func (s *quad) Hold(allowed bool) bool {
	s.lag = allowed
	if allowed {
		s.holds++
	}
	return allowed
}

func (s *quad) Late(dy *[6][]float64, t *[6]float64, lo, hi int) {
	for i := max(lo, s.na); i < hi; i++ {
		for j := 2; j <= 7; j++ {
			dy[j-2][i] = s.row(s.u[LagBuf(j)], t[j-2], i)
		}
	}
}

func (s *quad) Held(_ int, _ []float64, _, _ int) bool {
	return s.failEvery == 0 || s.holds%s.failEvery != 0
}

func TestSplitLagMatchesSplit(t *testing.T) {
	// A stepper whose right-hand side holds the quadrature rows back to
	// the end of each step takes the same steps and computes the same
	// bits as one that does not, whatever the grain and the number of
	// goroutines; where Held fails, the step is computed again at six
	// more evaluations, with the same result.
	for _, c := range []struct{ n, na, grain, workers int }{{100, 60, 16, 2}, {100, 60, 32, 1}, {70, 7, 0, 3}, {33, 32, 16, 2}} {
		y0 := make([]float64, c.n)
		for i := range y0 {
			y0[i] = float64(i%5) - 2
		}
		set := &Settings{AbsTol: 1e-9, RelTol: 1e-9}
		plain := newQuad(c.n, c.na, 4)
		ref, err := NewDormandPrinceSplit(&Split{Map: plain.mapRange, Rows: plain.rowsRange, Grain: c.grain, Workers: c.workers}, 0, y0, set)
		require.NoError(t, err)
		var want, dense [][]float64
		for ref.Time() < 10 {
			require.NoError(t, ref.Step(10))
			want = append(want, append([]float64(nil), ref.State()...))
			dense = append(dense, ref.Interpolate(nil, (ref.PrevTime()+ref.Time())/2))
		}
		for _, failEvery := range []int{0, 3} {
			s := newQuad(c.n, c.na, 4)
			s.failEvery = failEvery
			d, err := NewDormandPrinceSplit(&Split{Map: s.mapRange, Rows: s.rowsRange, Grain: c.grain, Workers: c.workers, Lag: s}, 0, y0, set)
			require.NoError(t, err)
			for k := range want {
				require.NoError(t, d.Step(10))
				require.Equal(t, want[k], d.State(), "%+v, fail every %d: step %d", c, failEvery, k)
				require.Equal(t, dense[k], d.Interpolate(nil, (d.PrevTime()+d.Time())/2), "dense output, step %d", k)
			}
			st, rs := d.Stats(), ref.Stats()
			assert.Equal(t, rs.Accepted, st.Accepted)
			assert.Equal(t, s.holds, rs.Accepted+rs.Rejected, "%+v: every trial step lagged", c)
			fails := 0
			if failEvery > 0 {
				fails = s.holds / failEvery
			}
			assert.Equal(t, rs.Evaluations+6*fails, st.Evaluations, "%+v, fail every %d", c, failEvery)
		}
	}
}
