package stability

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// DiurnalSettings shapes a synthetic day of DNS demand. A nil
// *DiurnalSettings or a zero field means the default; a field outside its
// domain is an error naming it.
type DiurnalSettings struct {
	// Amplitude is the relative swing a ∈ (0, 1] of the daily cycle
	// (default 0.6): the cycle is 1 + a·sin(2π(t − 10 h − φ_j)/24 h),
	// lowest at 4 h and highest at 16 h local time. NoCycle sets a = 0.
	Amplitude float64
	// Noise is the standard deviation σ > 0 of the log-demand noise
	// (default 0.05); Memory ∈ (0, 1) is its AR(1) coefficient ρ per
	// sample (default 0.95), so the noise varies slowly: n(k+1) = ρ n(k) +
	// √(1−ρ²) σ ξ. NoNoise sets σ = 0.
	Noise, Memory float64
	// Phase holds per-node offsets φ_j in hours (time zones); nil means 0.
	Phase []float64
	// NoCycle removes the daily cycle and NoNoise the noise (zero values
	// of Amplitude and Noise mean their defaults).
	NoCycle, NoNoise bool
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the field,
// for a field outside its domain (Phase entries must be finite; its length
// is checked by Diurnal). A nil *DiurnalSettings is valid.
func (s *DiurnalSettings) Validate() error {
	if s == nil {
		return nil
	}
	switch {
	case !(s.Amplitude >= 0 && s.Amplitude <= 1):
		return loadlab.Invalid("stability", "DiurnalSettings.Amplitude = %v, want a value in [0, 1] (0 for the default)", s.Amplitude)
	case !(s.Noise >= 0) || math.IsInf(s.Noise, 1):
		return loadlab.Invalid("stability", "DiurnalSettings.Noise = %v, want a finite value ≥ 0 (0 for the default)", s.Noise)
	case !(s.Memory >= 0 && s.Memory < 1):
		return loadlab.Invalid("stability", "DiurnalSettings.Memory = %v, want a value in [0, 1) (0 for the default)", s.Memory)
	}
	for j, p := range s.Phase {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return loadlab.Invalid("stability", "DiurnalSettings.Phase[%d] = %v, want a finite value", j, p)
		}
	}
	return nil
}

// withDefaults returns the settings with every zero field replaced by its
// default and the switches applied.
func (s *DiurnalSettings) withDefaults() DiurnalSettings {
	var set DiurnalSettings
	if s != nil {
		set = *s
	}
	if set.Amplitude == 0 {
		set.Amplitude = 0.6
	}
	if set.Noise == 0 {
		set.Noise = 0.05
	}
	if set.Memory == 0 {
		set.Memory = 0.95
	}
	if set.NoCycle {
		set.Amplitude = 0
	}
	if set.NoNoise {
		set.Noise = 0
	}
	return set
}

// Diurnal returns a demand trace A[k][j] = base_j · cycle_j(times[k]) ·
// e^{n_j(k)}: a daily cycle times slowly varying log-normal noise that
// starts in its stationary law. Times are in hours. A node with base 0,
// or at a zero of its cycle (Amplitude 1), has demand 0.
//
// Diurnal returns an error wrapping loadlab.ErrInvalid for a negative or
// non-finite base, a non-finite time, invalid settings, a Phase of the
// wrong length, or a demand that overflows float64 (a noise so large that
// e^{n} is +Inf); and one wrapping loadlab.ErrTooLarge if the trace would
// not fit in memory.
//
// Diurnal panics if src is nil.
func Diurnal(base, times []float64, s *DiurnalSettings, src rand.Source) ([][]float64, error) {
	if src == nil {
		panic("stability: Diurnal: src is nil")
	}
	if err := checkDiurnal(base, times, s); err != nil {
		return nil, err
	}
	set := s.withDefaults()
	rng := rand.New(src)
	noise := make([]float64, len(base))
	for j := range noise {
		noise[j] = set.Noise * rng.NormFloat64() // stationary start
	}
	innov := math.Sqrt(1-set.Memory*set.Memory) * set.Noise
	out := make([][]float64, len(times))
	for k, t := range times {
		a := make([]float64, len(base))
		for j, b := range base {
			if k > 0 {
				noise[j] = set.Memory*noise[j] + innov*rng.NormFloat64()
			}
			var phi float64
			if set.Phase != nil {
				phi = set.Phase[j]
			}
			a[j] = demand(b*(1+set.Amplitude*math.Sin(2*math.Pi*(t-10-phi)/24)), noise[j])
			if math.IsInf(a[j], 1) {
				return nil, loadlab.Invalid("stability", "demand at times[%d] = %v, node %d overflows: base %v, log-noise %v (DiurnalSettings.Noise = %v)",
					k, t, j, b, noise[j], set.Noise)
			}
		}
		out[k] = a
	}
	return out, nil
}

// demand returns m·e^n for a mean m ≥ 0 without spurious overflow: 0 when
// m = 0 (no demand, whatever the noise; 0·e^n would be NaN once e^n
// overflows), and through logarithms when e^n alone overflows, so that
// +Inf means that the demand itself exceeds float64.
func demand(m, n float64) float64 {
	if m == 0 {
		return 0
	}
	e := math.Exp(n)
	if math.IsInf(e, 1) {
		return math.Exp(math.Log(m) + n)
	}
	return m * e
}

// checkDiurnal validates the inputs of Diurnal and the size of its output.
func checkDiurnal(base, times []float64, s *DiurnalSettings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	if s != nil && s.Phase != nil && len(s.Phase) != len(base) {
		return loadlab.Invalid("stability", "len(DiurnalSettings.Phase) = %d, want len(base) = %d", len(s.Phase), len(base))
	}
	for j, b := range base {
		if !(b >= 0) || math.IsInf(b, 1) {
			return loadlab.Invalid("stability", "base[%d] = %v, want a finite value ≥ 0", j, b)
		}
	}
	for k, t := range times {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return loadlab.Invalid("stability", "times[%d] = %v, want a finite value", k, t)
		}
	}
	return size.Check("stability", "len(times)", len(times), 8*len(base)+24)
}
