package mobility

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Point is a position in the plane, in metres.
type Point struct{ X, Y float64 }

// Dist returns the Euclidean distance between p and q. It uses a plain
// square root rather than math.Hypot, whose overflow guard is not needed
// for coordinates in metres and costs a factor of several in the
// forecasting loops.
func (p Point) Dist(q Point) float64 {
	dx, dy := p.X-q.X, p.Y-q.Y
	return math.Sqrt(dx*dx + dy*dy)
}

// Walk is a random way-point trajectory sampled once per slot (spec
// §8.1): the node moves in a straight line at constant speed towards a
// way-point drawn uniformly in the square [0, Side]², and on arrival
// immediately heads for the next one (zero pause).
type Walk struct {
	Side  float64 // side of the square area, m
	Speed float64 // distance covered per slot, m
	// Pos[t] is the position during slot t.
	Pos []Point
	// Leg[t] indexes Way: the way-point the node heads for after Pos[t].
	Leg []int
	// Way lists the way-points in the order they are visited.
	Way []Point
}

// RandomWaypoint samples a walk of T slots in [0, side]² at the given
// speed (metres per slot), starting from a uniform random point. It
// returns an error if side or speed is not positive and finite, or
// T < 1.
func RandomWaypoint(side, speed float64, T int, src rand.Source) (*Walk, error) {
	switch {
	case !(side > 0) || math.IsInf(side, 1):
		return nil, fmt.Errorf("mobility: side = %v: want finite and > 0", side)
	case !(speed > 0) || math.IsInf(speed, 1):
		return nil, fmt.Errorf("mobility: speed = %v: want finite and > 0", speed)
	case T < 1:
		return nil, fmt.Errorf("mobility: T = %d slots: want ≥ 1", T)
	}
	rng := rand.New(src)
	draw := func() Point { return Point{side * rng.Float64(), side * rng.Float64()} }
	w := &Walk{Side: side, Speed: speed, Pos: make([]Point, T), Leg: make([]int, T)}
	p := draw()
	w.Way = append(w.Way, draw())
	for t := range T {
		w.Pos[t] = p
		w.Leg[t] = len(w.Way) - 1 // the way-point being approached from p
		// Move speed metres along the polyline of way-points.
		left := speed
		for {
			target := w.Way[len(w.Way)-1]
			d := p.Dist(target)
			if d > left {
				p.X += (target.X - p.X) * left / d
				p.Y += (target.Y - p.Y) * left / d
				break
			}
			left -= d
			p = target
			w.Way = append(w.Way, draw())
			if left == 0 {
				break
			}
		}
	}
	return w, nil
}
