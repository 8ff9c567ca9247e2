package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"unicode/utf8"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/sweep"
)

// sweepConfig is the configuration file.
type sweepConfig struct {
	Sweep  string          `json:"sweep"`
	Seed   uint64          `json:"seed"`
	Runs   int             `json:"runs"`
	Params json.RawMessage `json:"params"`
}

// sweepJob is one prepared sweep: its runs and its summaries.
type sweepJob interface {
	// Prefix is the seed path between the root seed and the run index.
	Prefix() []uint64
	// Run computes run r.
	Run(r int) ([]float64, error)
	// Summarize turns the runs' values, in run order, into the result.
	Summarize(values [][]float64) (sweepTable, error)
	// Direct computes the result with the library's one-process function.
	Direct() (sweepTable, error)
}

// sweepPrecise is a job whose one-process result can be asked for a
// precision instead of a run count (loadlab.Precision; the
// configuration's runs are the pilot). The result at the runs used is
// the fixed-runs result with that many runs; short of the precision at
// the cap, the result comes with an error wrapping
// loadlab.ErrNotConverged.
type sweepPrecise interface {
	DirectPrecise(p loadlab.Precision) (sweepTable, error)
}

// sweepPathed is a job whose seed paths are not Seed, Prefix..., r (see
// sweep.Plan.Path).
type sweepPathed interface {
	Path(r int) []uint64
}

// sweepCounted is a job whose plan has another number of runs than the
// configuration's runs (a sweep of points, the configuration giving
// the runs per point).
type sweepCounted interface {
	Total() int
}

// sweepJobs maps a sweep name to the function preparing it from its
// parameters (validating them), the seed and the number of runs.
//
// Run r with seed path (s, k, r) calls the model's own per-run function
// on the stream loadlab.Stream(s, k, r), the one the library's loop
// gives that run: dual.Solve (measured by Result.SteadyGap),
// codedload's Point.Run, stability's Law.Attract and a 1×1 TwoNodeMap,
// mobility.Play, consensus.SimulateRho, stability's Robustness.Beacon,
// competitive's AlphaPoint.Run and PredictionPoint.Run. Summarize treats the runs in
// run order as the library's loop does, so a merge equals --direct bit
// for bit. The adapters are the files sweep_*.go, one per area; their
// params structs document the parameters.
var sweepJobs = map[string]func(params json.RawMessage, seed uint64, runs int) (sweepJob, error){
	"consensus":            newSweepConsensus,
	"mobility":             newSweepMobility,
	"codedload":            newSweepCodedload,
	"codedload-sizes":      newSweepCodedloadSizes,
	"codedload-preset":     newSweepCodedloadPreset,
	"codedload-compare":    newSweepCodedloadCompare,
	"stability-attractors": newSweepAttractors,
	"stability-map":        newSweepTwoNodeMap,
	"stability-study":      newSweepStudy,
	"dual":                 newSweepDual,
	"anycast-beacon":       newSweepBeacon,
	"coding-reception":     newSweepReception,
	"nomadic-alpha":        newSweepAlpha,
	"nomadic-predict":      newSweepPredict,
}

// sweepLoad reads and validates the configuration file.
func sweepLoad(path string) (sweep.Plan, sweepJob, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return sweep.Plan{}, nil, err
	}
	var c sweepConfig
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return sweep.Plan{}, nil, sweepConfigError(path, data, sweepJSONOffset(err), "JSON: "+err.Error())
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return sweep.Plan{}, nil, sweepConfigError(path, data, int64(len(data)-len(rest)+1), "data after the configuration's object")
	}
	prepare, ok := sweepJobs[c.Sweep]
	if !ok {
		return sweep.Plan{}, nil, loadlab.Invalid("sweep", "%s: unknown sweep %q (see loadlab sweep --list)", path, c.Sweep)
	}
	if c.Runs < 1 {
		return sweep.Plan{}, nil, loadlab.Invalid("sweep", "%s: runs = %d, want ≥ 1", path, c.Runs)
	}
	if len(c.Params) == 0 {
		c.Params = json.RawMessage("{}")
	}
	j, err := prepare(c.Params, c.Seed, c.Runs)
	if err != nil {
		return sweep.Plan{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	p := sweep.Plan{Name: c.Sweep, Config: c.Params, Seed: c.Seed, Prefix: j.Prefix(), Runs: c.Runs}
	if pj, ok := j.(sweepPathed); ok {
		p.Path = pj.Path
	}
	if cj, ok := j.(sweepCounted); ok {
		p.Runs = cj.Total()
	}
	return p, j, p.Validate()
}

// sweepStrictParams decodes params into v, refusing unknown fields.
func sweepStrictParams(params json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return loadlab.Invalid("sweep", "params: %v", err)
	}
	return nil
}

// sweepConfigError is the error of a configuration file that does not
// decode: a *graphio.ParseError naming the file, and the line and column
// of byte off−1 (encoding/json reports errors after reading off bytes)
// when off > 0.
func sweepConfigError(path string, data []byte, off int64, msg string) error {
	pe := &graphio.ParseError{Pkg: "sweep", File: path, Msg: msg, Err: loadlab.ErrInvalid}
	if off < 1 || off > int64(len(data)) {
		return pe
	}
	before := data[:off-1]
	line := before[bytes.LastIndexByte(before, '\n')+1:]
	pe.Line = 1 + bytes.Count(before, []byte{'\n'})
	pe.Msg = fmt.Sprintf("column %d: %s", utf8.RuneCount(line)+1, msg)
	return pe
}

// sweepJSONOffset returns the offset encoding/json gives with err, or −1.
func sweepJSONOffset(err error) int64 {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return se.Offset
	case errors.As(err, &te):
		return te.Offset
	}
	return -1
}
