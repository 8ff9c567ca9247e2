package coding

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
)

// DecodeProb returns the probability that ℓ + δ coded chunks whose
// coefficient vectors are independent and uniform over GF(q)^ℓ decode,
// that is that an m×ℓ uniform random matrix over GF(q), m = ℓ + δ, has
// rank ℓ (spec coded-load.md §11.3):
//
//	P(ℓ, δ) = ∏_{i=0}^{ℓ−1} (1 − q^{i−m}) = ∏_{j=δ+1}^{ℓ+δ} (1 − q^{−j}),
//
// each factor formed as −expm1(−j ln q), so the result has a relative
// error of a few units of the last place. ℓ = 0 gives 1. It needs a field
// size q ≥ 2 (q = +Inf gives 1), ℓ ≥ 0 and δ ≥ 0, else an error wrapping
// loadlab.ErrInvalid.
func DecodeProb(q float64, ell, extra int) (float64, error) {
	if !(q >= 2) || ell < 0 || extra < 0 {
		return 0, loadlab.Invalid(pkg, "DecodeProb(q = %v, ℓ = %d, δ = %d): want q ≥ 2, ℓ ≥ 0 and δ ≥ 0", q, ell, extra)
	}
	lq := math.Log(q)
	p := 1.0
	for j := extra + 1; j <= extra+ell && j > 0; j++ { // j > 0: stop if j overflows
		f := -math.Expm1(-float64(j) * lq)
		if f == 1 {
			break // every later factor rounds to 1 too
		}
		p *= f
	}
	return p, nil
}

// FailProb returns 1 − DecodeProb(q, ℓ, δ), the probability that ℓ + δ
// uniform random chunks over GF(q) do not decode, to a few units of
// rounding relative to itself even when it is tiny (spec coded-load.md
// §11.3): −expm1(Σ_{j=δ+1}^{ℓ+δ} log1p(−q^{−j})), the sum cut once its
// terms fall below 2^−60 of it. Its arguments are those of DecodeProb,
// with the same errors.
func FailProb(q float64, ell, extra int) (float64, error) {
	if !(q >= 2) || ell < 0 || extra < 0 {
		return 0, loadlab.Invalid(pkg, "FailProb(q = %v, ℓ = %d, δ = %d): want q ≥ 2, ℓ ≥ 0 and δ ≥ 0", q, ell, extra)
	}
	lq := math.Log(q)
	s := 0.0
	for j := extra + 1; j <= extra+ell && j > 0; j++ {
		t := math.Log1p(-math.Exp(-float64(j) * lq))
		if t == 0 || math.Abs(t) < 0x1p-60*math.Abs(s) {
			break // the terms at least halve from here on
		}
		s += t
	}
	return -math.Expm1(s), nil
}

// ExpectedExtra returns the mean and the variance of the number of
// chunks beyond ℓ that a receiver of uniform random coefficient vectors
// over GF(q)^ℓ needs to reach rank ℓ (spec coded-load.md §11.3): at rank
// i the next chunk is innovative with probability 1 − q^{i−ℓ}, so the
// extra count is a sum of ℓ independent geometric overshoots and
//
//	E = Σ_{j=1}^{ℓ} 1/(q^j − 1),  Var = Σ_{j=1}^{ℓ} q^j/(q^j − 1)²,
//
// which also equals Σ_{δ≥0} (1 − DecodeProb(q, ℓ, δ)). Terms below 2^−60
// of the sum are dropped (they halve at least at every step), so the
// result is exact to a few units of the last place. It needs q ≥ 2
// (q = +Inf gives 0, 0) and ℓ ≥ 0, else an error wrapping
// loadlab.ErrInvalid.
func ExpectedExtra(q float64, ell int) (mean, variance float64, err error) {
	if !(q >= 2) || ell < 0 {
		return 0, 0, loadlab.Invalid(pkg, "ExpectedExtra(q = %v, ℓ = %d): want q ≥ 2 and ℓ ≥ 0", q, ell)
	}
	lq := math.Log(q)
	for j := 1; j <= ell; j++ {
		d := math.Expm1(float64(j) * lq) // q^j − 1
		m, v := 1/d, (d+1)/(d*d)
		if m < 0x1p-60*mean && v < 0x1p-60*variance || math.IsInf(d, 1) {
			break
		}
		mean += m
		variance += v
	}
	return mean, variance, nil
}

// Fields are the field sizes q of EstimateReception and ChunksToDecode:
// GF(2⁸) and its subfields GF(2), GF(4) and GF(16), whose elements are
// 0 and the powers of 2^{255/(q−1)} in GF(2⁸). A matrix with entries in a
// subfield has the same rank over it as over GF(2⁸).
var Fields = []int{2, 4, 16, 256}

// subfield returns the elements of GF(q) ⊂ GF(2⁸) in a fixed order (at
// q = 256 the identity), or nil when q is not one of Fields. The tables
// are shared: callers must not modify them.
func subfield(q int) []byte {
	switch q {
	case 2:
		return subfields[0]
	case 4:
		return subfields[1]
	case 16:
		return subfields[2]
	case 256:
		return subfields[3]
	}
	return nil
}

// subfields holds the elements of GF(2), GF(4), GF(16) and GF(2⁸):
// 0, then the powers of 2^{255/(q−1)}; GF(2⁸) in byte order. It is built
// by the init of gf.go, after the field's tables.
var subfields [4][]byte

// makeSubfields returns the tables of subfields.
func makeSubfields() [4][]byte {
	var out [4][]byte
	for i, q := range []int{2, 4, 16, 256} {
		el := make([]byte, q)
		for k := range el {
			if q == 256 {
				el[k] = byte(k)
			} else if k > 0 {
				el[k] = Exp((k - 1) * (255 / (q - 1)))
			}
		}
		out[i] = el
	}
	return out
}

// DrawCoeffs fills v with a coefficient vector drawn uniformly from
// GF(q)^len(v), q in Fields, as ChunksToDecode and Encoder.Random draw
// them: one byte of src per coefficient, eight from each Uint64, its low
// log₂ q bits picking the element. A q not in Fields is an error wrapping
// loadlab.ErrInvalid. It panics if src is nil.
func DrawCoeffs(q int, v []byte, src rand.Source) error {
	if src == nil {
		panic("coding: DrawCoeffs: src is nil")
	}
	el := subfield(q)
	if el == nil {
		return loadlab.Invalid(pkg, "DrawCoeffs: q = %d, want one of %v", q, Fields)
	}
	drawCoeffs(src, v)
	if q != 256 {
		mask := byte(q - 1)
		for i, c := range v {
			v[i] = el[c&mask]
		}
	}
	return nil
}

// MonteCarlo are the settings of EstimateReception. A nil pointer means
// the defaults.
type MonteCarlo struct {
	// Workers is the number of goroutines (0: GOMAXPROCS); the results
	// do not depend on it.
	Workers int
	// Precision, if not zero, makes the runs given a pilot and runs on
	// until the mean extra count meets it (docs/specs/monte-carlo.md §2:
	// 95 % half-width ≤ Abs or ≤ Rel·mean, and at least
	// loadlab.MinOffMode runs that needed an extra chunk).
	Precision loadlab.Precision
}

// Validate reports a negative Workers or an invalid Precision as an
// error wrapping loadlab.ErrInvalid.
func (s *MonteCarlo) Validate() error {
	if s == nil {
		return nil
	}
	if s.Workers < 0 {
		return loadlab.Invalid(pkg, "MonteCarlo.Workers = %d, want ≥ 0", s.Workers)
	}
	return s.Precision.Validate()
}

// Reception is the measured reception overhead of random linear coding.
type Reception struct {
	Q, Ell, Runs int
	// Decode[δ] is the measured probability that ℓ + δ chunks decode,
	// δ = 0, …, maxExtra, with its exact (Clopper–Pearson) 95 % interval.
	Decode []loadlab.Estimate
	// Extra is the mean number of chunks beyond ℓ needed, with its 95 %
	// Student-t interval.
	Extra loadlab.Estimate
	// Needed[r] is the number of chunks run r needed (ChunksToDecode).
	Needed []int
	// Status is Success, or IterationLimit when a Precision was not met
	// by its MaxRuns.
	Status loadlab.Status
}

// EstimateReception measures, over runs independent receivers, the
// probability that ℓ + δ uniform random chunks over GF(q) decode
// (δ = 0, …, maxExtra) and the mean number of chunks beyond ℓ needed, to
// be set beside DecodeProb and ExpectedExtra (spec coded-load.md §11.3).
// Run r is ChunksToDecode(q, ℓ, loadlab.Stream(seed, r)); the result does
// not depend on the number of workers. With set.Precision not zero, runs
// is the pilot and the runs go on, looking after every run in run order,
// until the mean extra count meets the precision; the result is then the
// fixed-runs result at the runs used, and at Precision.MaxRuns it comes
// with an error wrapping loadlab.ErrNotConverged (Status
// IterationLimit). A field size not in Fields, ℓ < 1, maxExtra < 0,
// runs < 2, a pilot above the cap or a bad setting is an error wrapping
// loadlab.ErrInvalid; ℓ > MaxStudyEll or runs beyond the memory budget,
// one wrapping loadlab.ErrTooLarge; a run that does not decode (a broken stream), the
// error of ChunksToDecode.
func EstimateReception(q, ell, maxExtra, runs int, seed uint64, set *MonteCarlo) (*Reception, error) {
	if err := set.Validate(); err != nil {
		return nil, err
	}
	if set == nil {
		set = &MonteCarlo{}
	}
	if subfield(q) == nil || ell < 1 || maxExtra < 0 || runs < 2 {
		return nil, loadlab.Invalid(pkg, "EstimateReception: q, ℓ, maxExtra, runs = %d, %d, %d, %d: want q in %v, ℓ ≥ 1, maxExtra ≥ 0, runs ≥ 2", q, ell, maxExtra, runs, Fields)
	}
	if ell > MaxStudyEll {
		return nil, loadlab.TooLarge(pkg, "EstimateReception: ℓ = %d, want ≤ MaxStudyEll = %d (a receiver costs about ℓ³ byte operations)", ell, MaxStudyEll)
	}
	prec := set.Precision
	if !prec.IsZero() && runs > prec.Cap() {
		return nil, loadlab.Invalid(pkg, "EstimateReception: runs = %d (the pilot) above Precision.MaxRuns = %d", runs, prec.Cap())
	}
	total := runs
	if !prec.IsZero() {
		total = prec.Cap()
	}
	if err := size.Check(pkg, "EstimateReception: runs", total, 16); err != nil {
		return nil, err
	}
	if err := size.Check(pkg, "EstimateReception: maxExtra", maxExtra, 64); err != nil {
		return nil, err
	}
	run := func(r int) (int, error) { return ChunksToDecode(q, ell, loadlab.Stream(seed, uint64(r))) }
	var needed []int
	status := loadlab.Success
	if prec.IsZero() {
		needed = make([]int, runs)
		errs := make([]error, runs)
		mc.For(runs, set.Workers, func(r int) { needed[r], errs[r] = run(r) })
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
	} else {
		plan := mc.Plan{Precision: prec, Pilot: func(int) int { return runs }, Workers: set.Workers}
		outs, oc := mc.Until(1, plan, func(_, r int) (int, []float64, error) {
			n, err := run(r)
			return n, []float64{float64(n - ell)}, err
		})
		if oc[0].Status == loadlab.Failure {
			return nil, oc[0].Err
		}
		needed, status = outs[0], oc[0].Status
	}
	res := reception(q, ell, maxExtra, needed)
	res.Status = status
	if status != loadlab.Success {
		return res, loadlab.Wrap(loadlab.ErrNotConverged, pkg, "EstimateReception: mean extra chunks short of the precision after Precision.MaxRuns = %d runs (mean %v, half-width %v)", prec.Cap(), res.Extra.Mean, res.Extra.HalfWidth())
	}
	return res, nil
}

// reception summarises the chunks each run needed.
func reception(q, ell, maxExtra int, needed []int) *Reception {
	runs := len(needed)
	res := &Reception{Q: q, Ell: ell, Runs: runs, Needed: needed, Decode: make([]loadlab.Estimate, maxExtra+1)}
	extra := make([]float64, runs)
	within := make([]int, maxExtra+1) // within[δ]: runs that needed exactly ℓ + δ
	for r, n := range needed {
		extra[r] = float64(n - ell)
		if n-ell <= maxExtra {
			within[n-ell]++
		}
	}
	k := 0
	for d := range res.Decode {
		k += within[d]
		res.Decode[d] = mc.Binomial(k, runs)
	}
	res.Extra = mc.Estimate(extra)
	return res
}

// ChunksToDecode draws coefficient vectors uniformly from GF(q)^ℓ, for q
// in Fields, until they span it and returns how many it drew: ℓ plus the
// extra chunks a receiver of random linear combinations needs (spec
// coded-load.md §11.3). It is the per-run function of EstimateReception.
// Each coefficient takes one byte of src (eight from each Uint64; its
// low log₂ q bits pick the element), so at q = 256 the vectors are those
// Encoder.Random draws from the same source. It draws at most
// ℓ + MaxExtraDraws vectors: a source that gives no full rank by then
// (probability at most 2·q^−MaxExtraDraws for a uniform one: the vectors
// would all lie in one of the (q^ℓ−1)/(q−1) hyperplanes; so in practice a
// broken source) is an error wrapping loadlab.ErrNotConverged, with
// the count drawn. A q not in Fields or ℓ < 1 is an error wrapping
// loadlab.ErrInvalid; ℓ > MaxStudyEll, one wrapping loadlab.ErrTooLarge.
// It panics if src is nil.
func ChunksToDecode(q, ell int, src rand.Source) (int, error) {
	if src == nil {
		panic("coding: ChunksToDecode: src is nil")
	}
	el := subfield(q)
	if el == nil || ell < 1 {
		return 0, loadlab.Invalid(pkg, "ChunksToDecode: q, ℓ = %d, %d: want q in %v and ℓ ≥ 1", q, ell, Fields)
	}
	if ell > MaxStudyEll {
		return 0, loadlab.TooLarge(pkg, "ChunksToDecode: ℓ = %d, want ≤ MaxStudyEll = %d (a receiver costs about ℓ³ byte operations)", ell, MaxStudyEll)
	}
	var b basis
	b.reset(ell, ell)
	v := make([]byte, ell)
	for n := 1; n <= ell+MaxExtraDraws; n++ {
		_ = DrawCoeffs(q, v, src) // q was checked
		if b.insert(v) && b.rank() == ell {
			return n, nil
		}
	}
	return ell + MaxExtraDraws, loadlab.Wrap(loadlab.ErrNotConverged, pkg, "ChunksToDecode: rank %d < ℓ = %d after ℓ + %d draws: is the source uniform?", b.rank(), ell, MaxExtraDraws)
}

// MaxExtraDraws bounds the draws of ChunksToDecode beyond ℓ.
const MaxExtraDraws = 1000

// MaxStudyEll is the largest ℓ of ChunksToDecode and EstimateReception:
// a simulated receiver reduces about ℓ vectors against up to ℓ basis rows
// of ℓ bytes, about ℓ³ byte operations (a few seconds at ℓ = 4096).
const MaxStudyEll = 1 << 12
