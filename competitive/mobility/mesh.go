package mobility

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/competitive"
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
	if m.Grid == 0 {
		m.Grid = 10
	}
	if m.Slots == 0 {
		m.Slots = 3600
	}
	if m.Speed == 0 {
		m.Speed = 10
	}
	if m.Setup == 0 {
		m.Setup = 50
	}
	return m
}

// Spacing is the distance between neighbouring routers, m.
const Spacing = 100.0

// Routers returns the router positions, row by row.
func (m Mesh) Routers() []Point {
	m = m.withDefaults()
	return lattice(m.Grid, Spacing)
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

// Sample implements Scenario. It returns an error for a negative Grid,
// Slots or Speed, or a negative or non-finite Setup.
func (m Mesh) Sample(src rand.Source) (*competitive.Instance, *Scene, error) {
	if m.Grid < 0 || m.Slots < 0 {
		return nil, nil, fmt.Errorf("mobility: Mesh Grid = %d, Slots = %d: want ≥ 0 (0 = default)", m.Grid, m.Slots)
	}
	m = m.withDefaults()
	if !(m.Setup >= 0) || math.IsInf(m.Setup, 1) {
		return nil, nil, fmt.Errorf("mobility: Mesh Setup = %v: want finite and ≥ 0", m.Setup)
	}
	sites := m.Routers()
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
	if c.Grid == 0 {
		c.Grid = 10
	}
	if c.Users == 0 {
		c.Users = 3
	}
	if c.Stay == 0 {
		c.Stay = 100
	}
	if c.Slots == 0 {
		c.Slots = 3600
	}
	if c.Setup == 0 {
		c.Setup = 10
	}
	return c
}

// Sample implements Scenario. It returns an error for negative or
// non-finite parameters.
func (c ChatRoom) Sample(src rand.Source) (*competitive.Instance, *Scene, error) {
	if c.Grid < 0 || c.Slots < 0 {
		return nil, nil, fmt.Errorf("mobility: ChatRoom Grid = %d, Slots = %d: want ≥ 0 (0 = default)", c.Grid, c.Slots)
	}
	c = c.withDefaults()
	for _, v := range []struct {
		name string
		x    float64
	}{{"Users", c.Users}, {"Stay", c.Stay}, {"Setup", c.Setup}} {
		if !(v.x >= 0) || math.IsInf(v.x, 1) {
			return nil, nil, fmt.Errorf("mobility: ChatRoom %s = %v: want finite and ≥ 0", v.name, v.x)
		}
	}
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
