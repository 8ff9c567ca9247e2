package mobility

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/stat/distuv"
)

// Scene is what a sampled run exposes to the algorithms besides the hold
// costs: the server sites and, in the mesh, the user's walk.
type Scene struct {
	Sites []Point
	Walk  *Walk // nil when the users do not move (chat room)
}

// Scenario samples independent runs of a simulation.
type Scenario interface {
	// Sample draws one run: its instance and scene.
	Sample(src rand.Source) (*competitive.Instance, *Scene, error)
}

// Mesh is the wireless mesh network of spec §8.1: routers on a regular
// Grid × Grid lattice with 100 m spacing (cell centres of a square of
// side 100·Grid m), one user moving by random way-point, hold cost =
// Euclidean distance in metres from the user to the serving router, one
// slot per second. Zero values mean the defaults in brackets.
//
// The spec's "1 km × 1 km with 100 routers, scaled up by 25" is read as
// constant router density: scale factor f = (Grid/10)², so Grid = 10,
// 20, ..., 50 gives f = 1, 4, ..., 25 (our reading; spec §8.1, open
// question 9).
type Mesh struct {
	Grid  int     // routers per side [10]
	Slots int     // horizon T in slots of 1 s [3600]
	Speed float64 // m/s [10]
	Setup float64 // setup cost C in metres [50]
}

func (m Mesh) withDefaults() Mesh {
	m.Grid = defaultInt(m.Grid, 10)
	m.Slots = defaultInt(m.Slots, 3600)
	m.Speed = defaultFloat(m.Speed, 10)
	m.Setup = defaultFloat(m.Setup, 50)
	return m
}

func defaultInt(x, def int) int {
	if x == 0 {
		return def
	}
	return x
}

func defaultFloat(x, def float64) float64 {
	if x == 0 {
		return def
	}
	return x
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// field and its value, if Grid or Slots is negative or Speed or Setup is
// negative, NaN or infinite, and one wrapping loadlab.ErrTooLarge if the
// Grid² routers, the Slots·Grid² hold costs or the walk (see
// RandomWaypoint) do not fit in memory. Zero fields are the defaults.
func (m Mesh) Validate() error {
	if err := validateInts("Mesh", m.Grid, m.Slots); err != nil {
		return err
	}
	if err := validateFloats("Mesh", field{"Speed", m.Speed}, field{"Setup", m.Setup}); err != nil {
		return err
	}
	m = m.withDefaults()
	if err := validateSizes("Mesh", m.Grid, m.Slots); err != nil {
		return err
	}
	// The walk's way-points: RandomWaypoint's own bound, checked here
	// before the routers and hold costs are allocated.
	_, err := wayPoints("Mesh", m.Slots, m.Speed, float64(m.Grid)*Spacing)
	return err
}

// field is a named settings value for validateFloats.
type field struct {
	name string
	x    float64
}

// validateInts checks the Grid and Slots fields of a scenario (0 means
// the default).
func validateInts(typ string, grid, slots int) error {
	switch {
	case grid < 0:
		return loadlab.Invalid(pkg, "%s.Grid = %d, want ≥ 0 (0 = default)", typ, grid)
	case slots < 0:
		return loadlab.Invalid(pkg, "%s.Slots = %d, want ≥ 0 (0 = default)", typ, slots)
	}
	return nil
}

// validateFloats checks that every field is finite and ≥ 0 (0 means the
// default).
func validateFloats(typ string, fs ...field) error {
	for _, f := range fs {
		if !(f.x >= 0) || f.x > math.MaxFloat64 {
			return loadlab.Invalid(pkg, "%s.%s = %v, want finite and ≥ 0 (0 = default)", typ, f.name, f.x)
		}
	}
	return nil
}

// validateSizes checks that Grid² sites and Slots·Grid² hold costs fit
// in memory.
func validateSizes(typ string, grid, slots int) error {
	k, ok := size.Mul(grid, grid)
	if !ok {
		return loadlab.TooLarge(pkg, "%s.Grid = %d: Grid² sites overflows int", typ, grid)
	}
	if err := size.Check(pkg, typ+".Grid: Grid² sites", k, 16); err != nil {
		return err
	}
	n, ok := size.Mul(slots, k)
	if !ok {
		return loadlab.TooLarge(pkg, "%s: Slots·Grid² = %d·%d hold costs overflows int", typ, slots, k)
	}
	return size.Check(pkg, typ+": Slots·Grid² hold costs", n, 8)
}

// Spacing is the distance between neighbouring routers, m.
const Spacing = 100.0

// Routers returns the router positions, row by row. It returns the
// errors of Validate.
func (m Mesh) Routers() ([]Point, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	m = m.withDefaults()
	return lattice(m.Grid, Spacing), nil
}

func lattice(n int, spacing float64) []Point {
	ps := make([]Point, 0, n*n)
	for i := range n {
		for j := range n {
			ps = append(ps, Point{(float64(j) + 0.5) * spacing, (float64(i) + 0.5) * spacing})
		}
	}
	return ps
}

// Sample implements Scenario. It returns the errors of Validate, and
// panics if src is nil.
func (m Mesh) Sample(src rand.Source) (*competitive.Instance, *Scene, error) {
	if src == nil {
		panic("mobility: Mesh.Sample: src is nil")
	}
	sites, err := m.Routers()
	if err != nil {
		return nil, nil, err
	}
	m = m.withDefaults()
	walk, err := RandomWaypoint(float64(m.Grid)*Spacing, m.Speed, m.Slots, src)
	if err != nil {
		return nil, nil, err
	}
	k := len(sites)
	h := make([]float64, m.Slots*k)
	for t, p := range walk.Pos {
		row := h[t*k : (t+1)*k]
		for s, q := range sites {
			row[s] = p.Dist(q) // spec §8.1: hold cost = distance
		}
	}
	in, err := competitive.NewInstanceFlat(m.Slots, k, h, m.Setup)
	if err != nil {
		return nil, nil, err
	}
	return in, &Scene{Sites: sites, Walk: walk}, nil
}

// ChatRoom is the wide-area chat room of spec §8.2, as we reconstruct it
// (open question 9): servers on a Grid × Grid lattice with unit spacing;
// static users appear at uniform random points of the square by a Poisson
// process and stay for exponential times, so that Users are present on
// average (an M/M/∞ queue started in equilibrium); the group session's
// hold cost on a server is the sum of the distances from the users
// present to it (0 when the room is empty). Zero values mean the
// defaults in brackets. "Scaling up by 25 × 25" is read as Grid up to 25
// (625 servers) at constant density.
type ChatRoom struct {
	Grid  int     // servers per side [10]
	Users float64 // mean number of users present [3]
	Stay  float64 // mean stay of a user, slots [100]
	Slots int     // horizon T [3600]
	Setup float64 // setup cost C, distance units [10]
}

func (c ChatRoom) withDefaults() ChatRoom {
	c.Grid = defaultInt(c.Grid, 10)
	c.Users = defaultFloat(c.Users, 3)
	c.Stay = defaultFloat(c.Stay, 100)
	c.Slots = defaultInt(c.Slots, 3600)
	c.Setup = defaultFloat(c.Setup, 10)
	return c
}

// maxArrivals bounds the expected number of users a chat room simulates,
// Users·(1 + Slots/Stay), each a few random draws and 24 bytes while
// present; maxDistances bounds the expected number of user–server
// distances it sums, Users·Grid²·Slots (about a minute of work). Beyond
// them a run would take hours, so they are ErrTooLarge.
const (
	maxArrivals  = 1e8
	maxDistances = 1e11
)

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// field and its value, if Grid or Slots is negative or Users, Stay or
// Setup is negative, NaN or infinite, and one wrapping
// loadlab.ErrTooLarge if the Grid² servers or the Slots·Grid² hold costs
// do not fit in memory, if the expected number of users simulated,
// Users·(1 + Slots/Stay), exceeds 10⁸, or if the expected number of
// distances summed, Users·Grid²·Slots, exceeds 10¹¹. Zero fields are the
// defaults.
func (c ChatRoom) Validate() error {
	if err := validateInts("ChatRoom", c.Grid, c.Slots); err != nil {
		return err
	}
	if err := validateFloats("ChatRoom", field{"Users", c.Users}, field{"Stay", c.Stay}, field{"Setup", c.Setup}); err != nil {
		return err
	}
	c = c.withDefaults()
	if err := validateSizes("ChatRoom", c.Grid, c.Slots); err != nil {
		return err
	}
	if n := c.Users * (1 + float64(c.Slots)/c.Stay); !(n <= maxArrivals) {
		return loadlab.TooLarge(pkg, "ChatRoom: Users·(1 + Slots/Stay) = %v·(1 + %d/%v) = %.3g expected users, more than %.0e", c.Users, c.Slots, c.Stay, n, maxArrivals)
	}
	if n := c.Users * float64(c.Grid) * float64(c.Grid) * float64(c.Slots); !(n <= maxDistances) {
		return loadlab.TooLarge(pkg, "ChatRoom: Users·Grid²·Slots = %v·%d²·%d = %.3g distances, more than %.0e", c.Users, c.Grid, c.Slots, n, maxDistances)
	}
	return nil
}

// Sample implements Scenario. It returns the errors of Validate, and
// panics if src is nil.
func (c ChatRoom) Sample(src rand.Source) (*competitive.Instance, *Scene, error) {
	if src == nil {
		panic("mobility: ChatRoom.Sample: src is nil")
	}
	if err := c.Validate(); err != nil {
		return nil, nil, err
	}
	c = c.withDefaults()
	sites := lattice(c.Grid, 1)
	k := len(sites)
	h := make([]float64, c.Slots*k)
	c.users(src, func(t int, present []Point) {
		row := h[t*k : (t+1)*k]
		for _, u := range present {
			for s, q := range sites {
				row[s] += u.Dist(q) // sum of distances (our reading, spec §8.2)
			}
		}
	})
	in, err := competitive.NewInstanceFlat(c.Slots, k, h, c.Setup)
	if err != nil {
		return nil, nil, err
	}
	return in, &Scene{Sites: sites}, nil
}

// users simulates the room and calls visit with the users present in
// every slot (the slice is reused between calls).
func (c ChatRoom) users(src rand.Source, visit func(t int, present []Point)) {
	rng := rand.New(src)
	side := float64(c.Grid)
	var pos []Point
	var leave []float64
	join := func(t float64) {
		pos = append(pos, Point{side * rng.Float64(), side * rng.Float64()})
		leave = append(leave, t+c.Stay*rng.ExpFloat64())
	}
	for range int(distuv.Poisson{Lambda: c.Users, Src: rng}.Rand()) { // equilibrium start; stays are memoryless
		join(0)
	}
	// Little's law: arrivals at rate Users/Stay keep Users present on
	// average.
	arrivals := distuv.Poisson{Lambda: c.Users / c.Stay, Src: rng}
	for t := range c.Slots {
		now := float64(t)
		for range int(arrivals.Rand()) {
			join(now)
		}
		n := 0
		for i := range pos {
			if leave[i] > now {
				pos[n], leave[n] = pos[i], leave[i]
				n++
			}
		}
		pos, leave = pos[:n], leave[:n]
		visit(t, pos)
	}
}
