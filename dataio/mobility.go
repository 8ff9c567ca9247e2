package dataio

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/internal/size"
)

// MobilitySample is a user's position (X, Y) at a time.
type MobilitySample struct{ Time, X, Y float64 }

// Mobility is a mobility trace (spec nomadic §17.1): for each user, its
// positions in increasing time.
type Mobility struct {
	Users   []int              // user ids, ascending
	Samples [][]MobilitySample // Samples[i]: user Users[i]'s positions, strictly increasing in time
}

// ReadMobility reads a mobility trace (spec nomadic §17.1): a CSV with the
// columns time, user, x and y (a header naming them, in any order; other
// columns are an error), one line per sample: the time (any unit, the
// slot length's), the user's id (an integer ≥ 0) and its position (any
// length unit, the routers'). Lines of different users may interleave;
// each user's times must increase strictly down the file. Errors are
// *graphio.ParseError values naming the line, the column and the cell: a
// time or coordinate that is NaN or infinite, a user that is not an
// integer in [0, 2⁵³], a time not after the user's previous one; and
// those of ReadTable (a cell that is not a number, a missing header). It
// panics if r is nil.
func ReadMobility(r io.Reader) (*Mobility, error) {
	mustIO("ReadMobility", "r", r)
	return readMobility(r)
}

// ReadMobilityFile is ReadMobility on the named file; its errors name
// the file.
func ReadMobilityFile(path string) (*Mobility, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := readMobility(f)
	return m, inFile(err, path)
}

func readMobility(r io.Reader) (*Mobility, error) {
	t, err := ReadTable(r, &TableOptions{Header: graphio.HeaderYes, Columns: []string{"time", "user", "x", "y"}})
	if err != nil {
		return nil, err
	}
	if len(t.Header) != 4 {
		return nil, &graphio.ParseError{Pkg: pkgName, Line: t.headerLine, Field: "header", Value: fmt.Sprint(t.Header), Msg: "want exactly the columns time, user, x, y", Err: loadlab.ErrInvalid}
	}
	index := map[int]int{}
	m := &Mobility{}
	for k, row := range t.Rows {
		bad := func(c int, msg string) error {
			return &graphio.ParseError{Pkg: pkgName, Line: t.Lines[k], Field: t.field(c), Value: num(row[c]), Msg: msg, Err: loadlab.ErrInvalid}
		}
		for _, c := range []int{0, 2, 3} {
			if math.IsNaN(row[c]) || math.IsInf(row[c], 0) {
				return nil, bad(c, "want a finite number")
			}
		}
		u := row[1]
		if u != math.Trunc(u) || u < 0 || u > maxCount {
			return nil, bad(1, "want a user id, an integer in [0, 2⁵³]")
		}
		i, ok := index[int(u)]
		if !ok {
			i = len(m.Users)
			index[int(u)] = i
			m.Users = append(m.Users, int(u))
			m.Samples = append(m.Samples, nil)
		}
		s := m.Samples[i]
		if n := len(s); n > 0 && !(row[0] > s[n-1].Time) {
			return nil, bad(0, fmt.Sprintf("user %d's time %v is not after its previous sample's %v", int(u), row[0], s[n-1].Time))
		}
		m.Samples[i] = append(s, MobilitySample{Time: row[0], X: row[2], Y: row[3]})
	}
	if len(m.Users) == 0 {
		return nil, loadlab.Invalid(pkgName, "ReadMobility: no samples, want at least one line after the header")
	}
	order := make([]int, len(m.Users))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return m.Users[a] - m.Users[b] })
	users, samples := make([]int, len(order)), make([][]MobilitySample, len(order))
	for j, i := range order {
		users[j], samples[j] = m.Users[i], m.Samples[i]
	}
	m.Users, m.Samples = users, samples
	return m, nil
}

// Validate returns an error wrapping loadlab.ErrInvalid if the trace
// has no user, Users and Samples differ in length, the ids are not
// strictly increasing and ≥ 0, a user has no sample, or a user's samples
// are not finite or not strictly increasing in time. ReadMobility's
// traces are valid; MobilityInstance validates the trace it is given.
func (m *Mobility) Validate() error {
	if len(m.Users) == 0 || len(m.Users) != len(m.Samples) {
		return loadlab.Invalid(pkgName, "Mobility: %d users and %d sample lists, want as many and at least one", len(m.Users), len(m.Samples))
	}
	for i, u := range m.Users {
		if u < 0 || i > 0 && u <= m.Users[i-1] {
			return loadlab.Invalid(pkgName, "Mobility.Users[%d] = %d, want ids ≥ 0 in increasing order", i, u)
		}
		if len(m.Samples[i]) == 0 {
			return loadlab.Invalid(pkgName, "Mobility.Samples[%d] (user %d) is empty, want at least one sample", i, u)
		}
		for j, a := range m.Samples[i] {
			if !finiteF(a.Time) || !finiteF(a.X) || !finiteF(a.Y) || j > 0 && !(a.Time > m.Samples[i][j-1].Time) {
				return loadlab.Invalid(pkgName, "Mobility.Samples[%d][%d] = %+v, want finite and after the previous sample", i, j, a)
			}
		}
	}
	return nil
}

func finiteF(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// At returns user i's (the index in Users) position at time t: linear
// between samples, the first sample's before it and the last one's
// after it (spec nomadic §17.1). It panics if i is out of range.
func (m *Mobility) At(i int, t float64) (x, y float64) {
	s := m.Samples[i]
	j, _ := slices.BinarySearchFunc(s, t, func(a MobilitySample, t float64) int {
		switch {
		case a.Time < t:
			return -1
		case a.Time > t:
			return 1
		}
		return 0
	})
	switch {
	case j == 0:
		return s[0].X, s[0].Y
	case j == len(s):
		return s[len(s)-1].X, s[len(s)-1].Y
	}
	a, b := s[j-1], s[j]
	f := (t - a.Time) / (b.Time - a.Time)
	return a.X + f*(b.X-a.X), a.Y + f*(b.Y-a.Y)
}

// MobilityOptions turns a mobility trace into hold costs
// (MobilityInstance). A nil *MobilityOptions or a zero field means the
// default stated on the field.
type MobilityOptions struct {
	// Slot > 0, finite, is the slot length in the trace's time unit;
	// zero means 1.
	Slot float64
	// Slots ≥ 1 is the horizon; zero means every slot that starts at or
	// before the last sample (of any user).
	Slots int
	// Users are the ids of the users of the session (their hold costs
	// add, spec §17.1); empty means every user of the trace.
	Users []int
	// Hops, when set, is a k × k matrix of router-to-router hop counts
	// (or delays; for instance the distances of a
	// competitive.ShortestPathMetric): a user costs Hops[r][s] on router
	// s, r the router nearest to it. Nil means the Euclidean distance to
	// the router.
	Hops [][]float64
}

// Validate returns an error wrapping loadlab.ErrInvalid naming a bad
// field: Slot negative, NaN or infinite, Slots negative, a Hops matrix
// that is not square or has a negative, NaN or infinite entry.
func (o *MobilityOptions) Validate() error {
	if o == nil {
		return nil
	}
	switch {
	case !(o.Slot >= 0 && o.Slot <= math.MaxFloat64):
		return loadlab.Invalid(pkgName, "MobilityOptions.Slot = %v, want finite and > 0 (0: the default 1)", o.Slot)
	case o.Slots < 0:
		return loadlab.Invalid(pkgName, "MobilityOptions.Slots = %d, want ≥ 1 (0: up to the last sample)", o.Slots)
	}
	for i, row := range o.Hops {
		if len(row) != len(o.Hops) {
			return loadlab.Invalid(pkgName, "MobilityOptions.Hops[%d] has %d entries, want %d (square)", i, len(row), len(o.Hops))
		}
		for j, v := range row {
			if !(v >= 0 && v <= math.MaxFloat64) {
				return loadlab.Invalid(pkgName, "MobilityOptions.Hops[%d][%d] = %v, want finite and ≥ 0", i, j, v)
			}
		}
	}
	return nil
}

// MobilityInstance turns the trace into a nomadic instance on the
// routers (spec nomadic §17.1): slot t starts at time t0 + t·Slot (t0 the
// first sample's time), each user of the session is where At puts it
// then, and its hold cost on router s is its Euclidean distance to s
// (or, with Hops, Hops[r][s] from its nearest router r, the lowest id on
// ties); the session's hold cost is the sum over its users; C is the
// setup cost. It returns an error wrapping loadlab.ErrInvalid for no
// router, a router coordinate that is NaN or infinite, a user not in
// the trace, a Hops matrix whose size is not the number of routers, bad
// options (Validate), a bad trace (Mobility.Validate) or C
// (NewInstanceFlat), and one wrapping
// loadlab.ErrTooLarge if the slots · routers hold costs do not fit in
// memory. It panics if m is nil.
func MobilityInstance(m *Mobility, routers [][2]float64, C float64, opts *MobilityOptions) (*competitive.Instance, error) {
	if m == nil {
		panic("dataio: MobilityInstance: nil trace")
	}
	o, users, err := mobilitySetup(m, routers, opts)
	if err != nil {
		return nil, err
	}
	k := len(routers)
	t0, t1 := m.span()
	T := o.Slots
	if T == 0 {
		n := math.Floor((t1-t0)/o.Slot) + 1
		if n > float64(math.MaxInt32) {
			return nil, loadlab.TooLarge(pkgName, "MobilityInstance: %.3g slots of %v from %v to %v", n, o.Slot, t0, t1)
		}
		T = int(n)
	}
	cells, ok := size.Mul(T, k)
	if !ok {
		return nil, loadlab.TooLarge(pkgName, "MobilityInstance: %d slots · %d routers overflow int", T, k)
	}
	if err := size.Check(pkgName, "MobilityInstance: slots · routers hold costs", cells, 8); err != nil {
		return nil, err
	}
	h := make([]float64, cells)
	for t := range T {
		row := h[t*k : (t+1)*k]
		at := t0 + float64(t)*o.Slot
		for _, i := range users {
			x, y := m.At(i, at)
			addHold(row, routers, o.Hops, x, y)
		}
	}
	return competitive.NewInstanceFlat(T, k, h, C)
}

// mobilitySetup validates the arguments and returns the options with
// their defaults and the indices of the session's users.
func mobilitySetup(m *Mobility, routers [][2]float64, opts *MobilityOptions) (MobilityOptions, []int, error) {
	var o MobilityOptions
	if err := m.Validate(); err != nil {
		return o, nil, err
	}
	if err := opts.Validate(); err != nil {
		return o, nil, err
	}
	if opts != nil {
		o = *opts
	}
	if o.Slot == 0 {
		o.Slot = 1
	}
	if len(routers) == 0 {
		return o, nil, loadlab.Invalid(pkgName, "MobilityInstance: no routers, want at least one")
	}
	for s, r := range routers {
		for _, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return o, nil, loadlab.Invalid(pkgName, "MobilityInstance: routers[%d] = %v, want finite coordinates", s, r)
			}
		}
	}
	if o.Hops != nil && len(o.Hops) != len(routers) {
		return o, nil, loadlab.Invalid(pkgName, "MobilityOptions.Hops is %d × %d, want %d × %d (one row per router)", len(o.Hops), len(o.Hops), len(routers), len(routers))
	}
	var users []int
	if len(o.Users) == 0 {
		for i := range m.Users {
			users = append(users, i)
		}
	}
	for _, u := range o.Users {
		i, ok := slices.BinarySearch(m.Users, u)
		if !ok {
			return o, nil, loadlab.Invalid(pkgName, "MobilityOptions.Users: user %d is not in the trace", u)
		}
		users = append(users, i)
	}
	return o, users, nil
}

// span returns the first and the last sample time of the trace.
func (m *Mobility) span() (t0, t1 float64) {
	t0, t1 = math.Inf(1), math.Inf(-1)
	for _, s := range m.Samples {
		t0, t1 = math.Min(t0, s[0].Time), math.Max(t1, s[len(s)-1].Time)
	}
	return t0, t1
}

// addHold adds a user at (x, y) to the hold costs of a slot.
func addHold(row []float64, routers [][2]float64, hops [][]float64, x, y float64) {
	if hops == nil {
		for s, r := range routers {
			row[s] += math.Hypot(x-r[0], y-r[1])
		}
		return
	}
	near, best := 0, math.Inf(1)
	for s, r := range routers {
		if d := math.Hypot(x-r[0], y-r[1]); d < best {
			near, best = s, d
		}
	}
	for s := range row {
		row[s] += hops[near][s]
	}
}
