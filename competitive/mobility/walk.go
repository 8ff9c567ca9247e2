package mobility

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// pkg prefixes the package's error messages.
const pkg = "mobility"

// Point is a position in the plane, in metres.
type Point struct{ X, Y float64 }

// Dist returns the Euclidean distance between p and q. It takes a plain
// square root, which the forecasting loops need for speed, and falls
// back to math.Hypot only when dx² + dy² overflows (coordinates beyond
// about 10¹⁵⁴), so it is exact to rounding for every finite input.
func (p Point) Dist(q Point) float64 {
	dx, dy := p.X-q.X, p.Y-q.Y
	if d := math.Sqrt(dx*dx + dy*dy); d <= math.MaxFloat64 {
		return d
	}
	return math.Hypot(dx, dy)
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

// meanLeg is the mean distance between two independent uniform points of
// the unit square, (2 + √2 + 5 ln(1 + √2))/15.
var meanLeg = (2 + math.Sqrt2 + 5*math.Log(1+math.Sqrt2)) / 15

// RandomWaypoint samples a walk of T slots in [0, side]² at the given
// speed (metres per slot), starting from a uniform random point.
//
// It returns an error wrapping loadlab.ErrInvalid if side or speed is
// not positive and finite or T < 1, and one wrapping loadlab.ErrTooLarge
// if the T positions, or the about 1 + T·speed/(0.52·side) way-points
// the walk visits, do not fit in memory (checked before the walk
// starts; the way-point loop is bounded by twice that number plus 64,
// which a walk exceeds with negligible probability, and exceeding it is
// the same error). Sides beyond 2⁵⁰⁰ m are handled by an exact
// power-of-two rescaling, so no distance overflows. It panics if src is
// nil.
func RandomWaypoint(side, speed float64, T int, src rand.Source) (*Walk, error) {
	if src == nil {
		panic("mobility: RandomWaypoint: src is nil")
	}
	switch {
	case !(side > 0) || side > math.MaxFloat64:
		return nil, loadlab.Invalid(pkg, "RandomWaypoint: side = %v, want finite and > 0", side)
	case !(speed > 0) || speed > math.MaxFloat64:
		return nil, loadlab.Invalid(pkg, "RandomWaypoint: speed = %v, want finite and > 0", speed)
	case T < 1:
		return nil, loadlab.Invalid(pkg, "RandomWaypoint: T = %d slots, want ≥ 1", T)
	}
	if err := size.Check(pkg, "RandomWaypoint: T slots", T, 24); err != nil {
		return nil, err
	}
	legs, err := wayPoints("RandomWaypoint", T, speed, side)
	if err != nil {
		return nil, err
	}
	// Multiplying by a power of two is exact, so the walk computed in
	// units of 2^e metres is the walk in metres, bit for bit, wherever
	// neither overflows; e = 0 for every side ≤ 2⁵⁰⁰.
	e := 0
	if side > 0x1p500 {
		_, e = math.Frexp(side)
	}
	w := &Walk{Side: side, Speed: speed, Pos: make([]Point, T), Leg: make([]int, T)}
	if !w.sample(math.Ldexp(side, -e), math.Ldexp(speed, -e), legs, rand.New(src)) {
		return nil, loadlab.TooLarge(pkg, "RandomWaypoint: the walk of T = %d slots used more than %d way-points", T, legs)
	}
	if e != 0 {
		w.rescale(e)
	}
	return w, nil
}

// wayPoints returns the bound on the number of way-points of a walk of T
// slots at speed in a square of the given side: twice the expected
// number T·speed/(meanLeg·side), plus 64. It returns an error wrapping
// loadlab.ErrTooLarge if that many do not fit in memory.
func wayPoints(who string, T int, speed, side float64) (int, error) {
	legs := 2*float64(T)*(speed/side)/meanLeg + 64
	if !(legs <= size.MaxBytes/16) {
		return 0, loadlab.TooLarge(pkg, "%s: T·speed/side = %d·%v/%v needs about %.3g way-points, more than %d GiB", who, T, speed, side, legs/2, size.MaxBytes>>30)
	}
	return int(legs), nil
}

// sample fills w.Pos, w.Leg and w.Way with a walk in [0, side]² at
// speed per slot; it reports false if the walk needs more than maxWay
// way-points.
func (w *Walk) sample(side, speed float64, maxWay int, rng *rand.Rand) bool {
	draw := func() Point { return Point{side * rng.Float64(), side * rng.Float64()} }
	p := draw()
	w.Way = append(w.Way, draw())
	for t := range w.Pos {
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
			if len(w.Way) >= maxWay {
				return false
			}
			w.Way = append(w.Way, draw())
			if left == 0 {
				break
			}
		}
	}
	return true
}

// rescale multiplies every position and way-point by 2^e.
func (w *Walk) rescale(e int) {
	for i, p := range w.Pos {
		w.Pos[i] = Point{math.Ldexp(p.X, e), math.Ldexp(p.Y, e)}
	}
	for i, p := range w.Way {
		w.Way[i] = Point{math.Ldexp(p.X, e), math.Ldexp(p.Y, e)}
	}
}
