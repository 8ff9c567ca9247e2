package mobility

import (
	"math"
	"math/rand/v2"
)

// forecast predicts the hold costs (distances to the sites) of a node on
// a Walk for the motion-aware algorithms (spec §7). With direction false
// it is Target-Aware's predictor: it knows the way-point of the current
// leg and the speed, so the next L = min(W, ⌊distance to way-point /
// speed⌋) positions are on the straight line towards it. With direction
// true it is Direction-Aware's: it knows the heading and the speed only,
// and predicts W slots straight ahead, clipped at the area boundary (a
// pseudo-target that Target-Aware's rule then follows).
//
// Noise σ > 0 displaces the (pseudo-)target by an independent N(0, σ²)
// offset per coordinate, drawn once per leg of the walk, so a prediction
// error persists along a leg as a wrong way-point announcement would
// (our noise model; spec §10 question 10).
type forecast struct {
	walk      *Walk
	sites     []Point
	direction bool
	noise     float64
	rng       *rand.Rand
	leg       int
	off       Point
}

// Forecast implements competitive.Forecaster.
func (f *forecast) Forecast(dst []float64, t, w int) (int, bool) {
	p, leg := f.walk.Pos[t], f.walk.Leg[t]
	if f.noise > 0 && (t == 0 || leg != f.leg) {
		f.off = Point{f.noise * f.rng.NormFloat64(), f.noise * f.rng.NormFloat64()}
	}
	f.leg = leg
	target := f.walk.Way[leg]
	v := f.walk.Speed
	if f.direction {
		d := p.Dist(target)
		if d == 0 {
			return 0, false
		}
		ux, uy := (target.X-p.X)/d, (target.Y-p.Y)/d
		reach := math.Min(float64(w)*v, boundary(p, ux, uy, f.walk.Side))
		target = Point{p.X + reach*ux, p.Y + reach*uy}
	}
	target.X += f.off.X
	target.Y += f.off.Y
	d := p.Dist(target)
	L := w // spec §7: slots until the (pseudo-)target, at most w
	if n := d / v; n < float64(w) {
		L = int(n)
	}
	if L == 0 {
		return 0, false
	}
	ux, uy := (target.X-p.X)/d, (target.Y-p.Y)/d
	k := len(f.sites)
	for i := range L {
		q := Point{p.X + float64(i+1)*v*ux, p.Y + float64(i+1)*v*uy}
		row := dst[i*k : (i+1)*k]
		for s, site := range f.sites {
			row[s] = q.Dist(site)
		}
	}
	return L, true
}

// boundary returns the distance from p along the unit vector (ux, uy) to
// the boundary of [0, side]².
func boundary(p Point, ux, uy, side float64) float64 {
	r := math.Inf(1)
	if ux > 0 {
		r = math.Min(r, (side-p.X)/ux)
	} else if ux < 0 {
		r = math.Min(r, -p.X/ux)
	}
	if uy > 0 {
		r = math.Min(r, (side-p.Y)/uy)
	} else if uy < 0 {
		r = math.Min(r, -p.Y/uy)
	}
	return math.Max(r, 0)
}
