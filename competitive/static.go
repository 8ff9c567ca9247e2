package competitive

// StaticBest returns the best static schedule chosen in hindsight: the
// server s that minimises the cost of serving every slot from s,
//
//	cost = C + Σ_t h_t(s)      (one setup, spec §2.3),
//
// with ties going to the lowest id (spec §12.7). It is the offline
// never-migrate baseline: OPT ≤ StaticBest always, with equality when
// C ≥ min_s Σ_t h_t(s) (spec §3, useful facts), and StaticBest is at most
// the cost of every static schedule, NeverMigrate's included. The cost is
// accumulated as RunCost and the dynamic program of Optimal accumulate
// it, C first and then each slot's hold cost in slot order, so that
// OptimumCost(in) ≤ cost holds in floating point too (spec §12.7). It
// costs O(kT) time and O(k) memory. It panics if in is nil.
func StaticBest(in *Instance) (cost float64, server int) {
	if in == nil {
		panic("competitive: StaticBest: nil instance")
	}
	sums := make([]float64, in.Servers())
	for s := range sums {
		sums[s] = in.Setup()
	}
	for t := range in.Slots() {
		row := in.Row(t)
		for s, h := range row {
			sums[s] += h
		}
	}
	server = argmin(sums)
	return sums[server], server
}

// NeverMigrate is the online policy that never migrates (spec §12.7): in
// the first slot it takes a server of least hold cost h_1 (the lowest id
// on ties, the first choice of DTrack and WFA, spec §12.3), and it stays
// there for the rest of the input, paying one setup. It is the online
// counterpart of StaticBest, which chooses the server in hindsight; the
// two agree when the first slot's cheapest server is the cheapest
// overall.
//
// NeverMigrate is not competitive: its cost is the static cost of its
// server, which can exceed OPT by any factor: h_1 = (0, 1) and
// h_t = (1, 0) after it cost it C + T − 1 against OPT ≤ C + 1. It is the
// baseline every migrating algorithm must beat on a realistic trace.
// Its zero value is ready for Reset; it has no parameters, and it
// implements Online, so Run, RunCost and Ratio take it.
type NeverMigrate struct {
	k, s int
}

// Reset implements Online. It returns an error wrapping
// loadlab.ErrInvalid if k < 1 or C is negative, NaN or infinite.
func (a *NeverMigrate) Reset(k int, C float64) error {
	if err := validateReset(k, C); err != nil {
		return err
	}
	a.k, a.s = k, NoServer
	return nil
}

// Step implements Online: the first slot's cheapest server, then the
// same server. Every row is validated, so a bad one is an error and
// leaves the state unchanged.
func (a *NeverMigrate) Step(hold []float64) (int, error) {
	if err := validateStep("NeverMigrate.Step", hold, a.k); err != nil {
		return NoServer, err
	}
	if a.s == NoServer {
		a.s = argmin(hold)
	}
	return a.s, nil
}
