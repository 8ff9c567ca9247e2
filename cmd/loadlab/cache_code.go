package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/coding"
)

// codeFlags are the flags of "cache code".
type codeFlags struct {
	ell, extra, runs, chunkKiB int
	field                      *choice
	throughput                 bool
	precision                  loadlab.Precision
	ltC, ltDelta               float64
}

func (a *app) cacheCodeCommand() *cobra.Command {
	f := codeFlags{field: newChoice("256", "2", "4", "16", "256")}
	c := &cobra.Command{
		Use:   "code",
		Short: "Decoding probability and extra chunks of random linear coding over GF(q)",
		Long:  cacheCodeLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if err := f.validate(); err != nil {
				return err
			}
			q, _ := strconv.Atoi(f.field.val)
			var rec *coding.Reception
			var recErr error
			if f.runs > 0 {
				p := a.startProgress(-1, fmt.Sprintf("%d receivers", f.runs))
				rec, recErr = coding.EstimateReception(q, f.ell, f.extra, f.runs, a.seed, &coding.MonteCarlo{Precision: f.precision})
				p.done()
				if rec == nil {
					return recErr
				}
			}
			var speed []codeSpeed
			if f.throughput {
				var err error
				if speed, err = measureCoding(f.ell, f.chunkKiB<<10, a.seed); err != nil {
					return err
				}
			}
			lt, err := f.ltStudy(a.seed)
			if err != nil {
				return err
			}
			ans, err := codeAnswer(q, f.ell, f.extra, rec, speed, lt)
			if err != nil {
				return err
			}
			if rec != nil && !f.precision.IsZero() {
				ans.notes = append(ans.notes, codePrecisionNote(f.precision, rec))
			}
			if err := a.emit(ans); err != nil {
				return err
			}
			return recErr // a precision short at --max-runs: the table, then exit 1
		},
	}
	fl := c.Flags()
	fl.IntVar(&f.ell, "ell", 14, "pieces ℓ of a file (chunks needed by an ideal code)")
	fl.IntVar(&f.extra, "extra", 3, "largest number δ of chunks beyond ℓ to tabulate")
	fl.Var(f.field, "field", "field size q of the coefficients")
	fl.IntVar(&f.runs, "runs", 0, "simulated receivers (0: exact values only; else ≥ 2; with --rel or --abs: the pilot)")
	fl.Float64Var(&f.precision.Rel, "rel", 0, "run until the mean extra count's 95 % half-width is ≤ rel·mean (0.05: ±5 %)")
	fl.Float64Var(&f.precision.Abs, "abs", 0, "run until the mean extra count's 95 % half-width is ≤ abs (chunks)")
	fl.IntVar(&f.precision.MaxRuns, "max-runs", 0, "with --rel or --abs: receivers at most (0: 10000)")
	fl.BoolVar(&f.throughput, "throughput", false, "also measure encode and decode speed (GF(2⁸), one core)")
	fl.IntVar(&f.chunkKiB, "chunk-kib", 64, "with --throughput: chunk size in KiB")
	fl.Float64Var(&f.ltC, "lt-c", 0, "with --runs: also simulate an LT code with robust soliton constant c (0: none)")
	fl.Float64Var(&f.ltDelta, "lt-delta", 0.5, "with --lt-c: the robust soliton's δ")
	return c
}

func (f *codeFlags) validate() error {
	switch {
	case f.ell < 1:
		return usagef("--ell = %d: want ≥ 1", f.ell)
	case f.extra < 0 || f.extra > 1000:
		return usagef("--extra = %d: want 0 … 1000", f.extra)
	case f.runs < 0 || f.runs == 1:
		return usagef("--runs = %d: want 0 or ≥ 2", f.runs)
	case !f.precision.IsZero() && f.runs == 0:
		return usagef("--rel or --abs without --runs: want the pilot --runs ≥ 2")
	case f.chunkKiB < 1 || f.chunkKiB > 1<<20:
		return usagef("--chunk-kib = %d: want 1 … %d", f.chunkKiB, 1<<20)
	case f.ltC != 0 && f.runs == 0:
		return usagef("--lt-c without --runs: want --runs ≥ 2 receivers")
	case f.throughput && f.ell > 128:
		return usagef("--throughput with --ell = %d: want ℓ ≤ 128 (the Reed–Solomon reference has ≤ 256 chunks)", f.ell)
	}
	return nil
}

// codeSpeed is one measured throughput.
type codeSpeed struct {
	Operation string  `json:"operation"`
	MBps      float64 `json:"mb_per_s"`
}

// codeAnswer is the table of exact (and measured) decode probabilities,
// the extra chunks, and the throughputs.
func codeAnswer(q, ell, extra int, rec *coding.Reception, speed []codeSpeed, lt *ltStudy) (*answer, error) {
	type row struct {
		Extra, Chunks int
		Exact, Fail   float64
		Measured      *loadlab.Estimate `json:",omitempty"`
	}
	cols := []string{"extra δ", "chunks ℓ+δ", "P(decode) exact", "P(fail) exact"}
	if rec != nil {
		cols = append(cols, "measured", "lo", "hi")
	}
	t := &table{name: fmt.Sprintf("decode probability, ℓ = %d, GF(%d)", ell, q), cols: cols}
	var rows []row
	for d := 0; d <= extra; d++ {
		p, err := coding.DecodeProb(float64(q), ell, d)
		if err != nil {
			return nil, err
		}
		fail, err := coding.FailProb(float64(q), ell, d)
		if err != nil {
			return nil, err
		}
		r := row{Extra: d, Chunks: ell + d, Exact: p, Fail: fail}
		cells := []any{d, ell + d, p, fail}
		if rec != nil {
			e := rec.Decode[d]
			r.Measured = &e
			cells = append(cells, e.Mean, e.Lo, e.Hi)
		}
		rows = append(rows, r)
		t.add(cells...)
	}
	mean, variance, err := coding.ExpectedExtra(float64(q), ell)
	if err != nil {
		return nil, err
	}
	xcols := []string{"quantity", "exact", "sd exact"}
	if rec != nil {
		xcols = append(xcols, "measured", "lo", "hi", "runs")
	}
	x := &table{name: "chunks beyond ℓ needed", cols: xcols}
	cells := []any{"mean extra chunks", mean, math.Sqrt(variance)}
	if rec != nil {
		cells = append(cells, rec.Extra.Mean, rec.Extra.Lo, rec.Extra.Hi, rec.Runs)
	}
	x.add(cells...)
	tables := []*table{t, x}
	if speed != nil {
		s := &table{name: "throughput (one core, wall time)", cols: []string{"operation", "MB/s"}}
		for _, v := range speed {
			s.add(v.Operation, v.MBps)
		}
		tables = append(tables, s)
	}
	if lt != nil {
		tables = append(tables, lt.table())
	}
	value := struct {
		Q, Ell     int
		Decode     []row
		Extra      any
		Throughput []codeSpeed `json:",omitempty"`
		LT         *ltStudy    `json:",omitempty"`
	}{q, ell, rows, map[string]any{"mean": mean, "variance": variance, "measured": recExtra(rec)}, speed, lt}
	return &answer{tables: tables, value: value}, nil
}

func recExtra(rec *coding.Reception) *loadlab.Estimate {
	if rec == nil {
		return nil
	}
	return &rec.Extra
}

// measureCoding times, on one goroutine, random linear encoding and
// decoding of ℓ chunks of sz bytes over GF(2⁸), and the Reed–Solomon
// reference's encoding and decoding from its last ℓ chunks, each
// repeated for about 0.2 s; MB/s of source data.
func measureCoding(ell, sz int, seed uint64) ([]codeSpeed, error) {
	rng := rand.New(loadlab.Stream(seed))
	source := make([][]byte, ell)
	for i := range source {
		source[i] = make([]byte, sz)
		for k := range source[i] {
			source[i][k] = byte(rng.Uint32())
		}
	}
	enc, err := coding.NewEncoder(source)
	if err != nil {
		return nil, err
	}
	chunks, err := enc.Random(ell+4, rng)
	if err != nil {
		return nil, err
	}
	dec, err := coding.NewDecoder(ell, sz)
	if err != nil {
		return nil, err
	}
	mds, err := coding.NewMDS(ell, 2*ell)
	if err != nil {
		return nil, err
	}
	coded, err := mds.Encode(source)
	if err != nil {
		return nil, err
	}
	lost := append(make([][]byte, ell), coded[ell:]...) // only parity left
	dst := make([][]byte, ell)
	for i := range dst {
		dst[i] = make([]byte, sz)
	}
	bytes := float64(ell * sz)
	ops := []struct {
		name string
		run  func() error
	}{
		{"RLNC encode (ℓ random chunks)", func() error { _, err := enc.Random(ell, rng); return err }},
		{"RLNC decode (Gaussian elimination)", func() error {
			dec.Reset()
			for _, c := range chunks {
				if _, err := dec.Add(c); err != nil {
					return err
				}
				if dec.CanDecode() {
					break
				}
			}
			return dec.DecodeTo(dst)
		}},
		{"Reed–Solomon encode (ℓ parity)", func() error { _, err := mds.Encode(source); return err }},
		{"Reed–Solomon decode (from parity)", func() error { _, err := mds.Decode(lost); return err }},
	}
	var out []codeSpeed
	for _, op := range ops {
		n, start := 0, time.Now()
		for n == 0 || time.Since(start) < 200*time.Millisecond {
			if err := op.run(); err != nil {
				return nil, err
			}
			n++
		}
		out = append(out, codeSpeed{op.name, bytes * float64(n) / time.Since(start).Seconds() / 1e6})
	}
	return out, nil
}

// codePrecisionNote states the target the receivers were run to and
// whether it was met.
func codePrecisionNote(p loadlab.Precision, rec *coding.Reception) string {
	var target []string
	if p.Rel > 0 {
		target = append(target, fmt.Sprintf("±%g %% of the mean", 100*p.Rel))
	}
	if p.Abs > 0 {
		target = append(target, fmt.Sprintf("±%g chunks", p.Abs))
	}
	s := fmt.Sprintf("receivers until the 95 %% half-width of the mean extra count is within %s, at most %d: %d runs", strings.Join(target, " or "), p.Cap(), rec.Runs)
	if rec.Status != loadlab.Success {
		s += "; short of the target at the cap"
	}
	return s
}

// ltStudy is the measured reception of an LT code (--lt-c).
type ltStudy struct {
	K          int
	C, Delta   float64
	Beta       float64
	Overhead   loadlab.Estimate
	FailAtBeta loadlab.Estimate
}

// ltStudy runs the LT receivers of --lt-c, or returns nil without it.
func (f *codeFlags) ltStudy(seed uint64) (*ltStudy, error) {
	if f.ltC == 0 {
		return nil, nil
	}
	l, err := coding.NewLT(f.ell, f.ltC, f.ltDelta)
	if err != nil {
		return nil, err
	}
	res, err := coding.EstimateLTReception(l, f.runs, seed, nil)
	if err != nil {
		return nil, err
	}
	return &ltStudy{K: f.ell, C: f.ltC, Delta: f.ltDelta, Beta: l.Beta(), Overhead: res.Overhead, FailAtBeta: res.FailAtBeta}, nil
}

// table is the LT study as rows of estimates.
func (s *ltStudy) table() *table {
	t := &table{name: fmt.Sprintf("LT code, k = %d, robust soliton c = %g, δ = %g (β = %.4g)", s.K, s.C, s.Delta, s.Beta), cols: []string{"quantity", "measured", "lo", "hi", "runs"}}
	t.add("reception overhead (symbols/k − 1)", s.Overhead.Mean, s.Overhead.Lo, s.Overhead.Hi, s.Overhead.N)
	t.add("P(more than kβ symbols), ≤ δ by Luby", s.FailAtBeta.Mean, s.FailAtBeta.Lo, s.FailAtBeta.Hi, s.FailAtBeta.N)
	return t
}

// cacheCodeLong is the help of "cache code".
const cacheCodeLong = `The coding layer under coded caching (spec coded-load.md §11). A file in
ℓ = --ell pieces is stored as random linear combinations with uniform
coefficients over GF(q), q = --field (GF(2⁸) or one of its subfields); a
request that collects ℓ + δ chunks decodes with probability
∏_{j=δ+1}^{ℓ+δ}(1 − q^{−j}) (spec §11.3), for δ = 0, …, --extra, and needs
Σ_{j=1}^{ℓ} 1/(q^j − 1) chunks beyond ℓ on average. The ideal model of
"cache compare" (an MDS code) decodes from any ℓ.

With --runs R ≥ 2, R receivers are simulated (run r on the stream of
--seed and r) and the measured probabilities are printed beside the exact
ones with their exact (Clopper–Pearson) 95 % intervals, and the mean extra
count with its Student-t interval. With --rel or --abs, --runs is the
pilot and the receivers go on until the mean extra count's 95 % half-width
is within ±rel of the mean or ±abs (spec monte-carlo.md), at most
--max-runs; short of it the table is printed and the exit code is 1.
With --throughput the encode and decode
speed of random linear coding (ℓ chunks of --chunk-kib KiB, one core, GF(2⁸))
and of the Reed–Solomon reference is measured (wall time; varies by machine).

With --lt-c C and --runs R, R receivers of an LT fountain code over k = ℓ
chunks (robust soliton law with c = C and δ = --lt-delta; spec §11.7) are
simulated too: their reception overhead (symbols needed over k, minus 1)
and the fraction that needed more than kβ symbols, at most δ by Luby's
theorem for c large enough.`
