package plots

import (
	"math"
	"slices"

	"gonum.org/v1/plot"
)

// A reader reads the range of the data from the tick labels, so every
// axis drawn with a Ticker has a labelled tick at or beyond each end of
// its range: drawPlot widens an axis whose end lies past its last label
// to the next labelled tick (fitAxis). Axes with other tickers (fixed
// ticks, categories) are left as they are; CheckTickRange reports them.

// fitTicks widens the axes of p that carry a Ticker so that each ends
// at a labelled tick.
func fitTicks(p *plot.Plot) {
	fitAxis(&p.X)
	fitAxis(&p.Y)
}

// fitAxis widens a to the labelled ticks next to its ends. The ticks
// depend on the range (a wider range may choose a coarser step, or
// label other decades), so it repeats until both ends are labelled;
// each round moves an end to a label, and a range whose ends are
// labels keeps them, so a few rounds suffice.
func fitAxis(a *plot.Axis) {
	t, ok := a.Tick.Marker.(Ticker)
	if !ok || !(a.Min < a.Max) || math.IsInf(a.Min, 0) || math.IsInf(a.Max, 0) {
		return
	}
	for range 8 {
		ts := t.Ticks(a.Min, a.Max)
		lo, hi, ok := labelledEnds(ts)
		if !ok {
			return // a hidden axis
		}
		// A label that misses an end by rounding still marks it.
		eps := 1e-9 * (a.Max - a.Min)
		if lo <= a.Min+eps && hi >= a.Max-eps {
			return
		}
		step := labelStep(ts)
		if _, log := a.Scale.(plot.LogScale); log && a.Min > 0 {
			// The next label of the same pattern (decades, 1-2-5, …):
			// a wider range would choose a sparser one.
			// If that is no label of the new range (labels on every
			// second decade), widen as for other axes.
			ms := labelMantissas(ts)
			switch {
			case len(ms) > 3: // every integer multiple is labelled
				ms = []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
			case slices.Contains(ms, 2) || slices.Contains(ms, 5):
				ms = []float64{1, 2, 5}
			}
			min0, max0 := a.Min, a.Max
			if lo > a.Min+eps {
				if a.Min = logLabelBeyond(ms, a.Min, -1); a.Min == min0 {
					a.Min = nextLabel(t, a, a.Min, -1)
				}
			}
			if hi < a.Max-eps {
				if a.Max = logLabelBeyond(ms, a.Max, +1); a.Max == max0 {
					a.Max = nextLabel(t, a, a.Max, +1)
				}
			}
			continue
		}
		if step == 0 {
			if lo > a.Min+eps {
				a.Min = nextLabel(t, a, a.Min, -1)
			}
			if hi < a.Max-eps {
				a.Max = nextLabel(t, a, a.Max, +1)
			}
			continue
		}
		// Linear: one labelled step beyond the last label.
		if lo > a.Min+eps {
			a.Min = lo - step
		}
		if hi < a.Max-eps {
			a.Max = hi + step
		}
	}
}

// labelStep returns the distance between the two lowest labels of ts
// (0 with fewer than two).
func labelStep(ts []plot.Tick) float64 {
	var got []float64
	for _, tk := range ts {
		if tk.Label != "" {
			if got = append(got, tk.Value); len(got) == 2 {
				return got[1] - got[0]
			}
		}
	}
	return 0
}

// labelledEnds returns the lowest and highest labelled tick.
func labelledEnds(ts []plot.Tick) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, tk := range ts {
		if tk.Label != "" {
			lo, hi, ok = min(lo, tk.Value), max(hi, tk.Value), true
		}
	}
	return lo, hi, ok
}

// nextLabel returns the labelled tick nearest to v beyond it (dir −1:
// below, +1: above), among the ticks of a's range widened on that side
// by half its span, then one, then two spans (by factors 10, 100, 1000
// on a log axis: labels of a long log axis fall on every second or
// third decade), or v if there is none.
func nextLabel(t Ticker, a *plot.Axis, v float64, dir int) float64 {
	_, log := a.Scale.(plot.LogScale)
	for _, f := range []float64{0.5, 1, 2} {
		lo, hi := a.Min, a.Max
		switch {
		case log && dir < 0:
			lo /= math.Pow(10, 2*f)
		case log:
			hi *= math.Pow(10, 2*f)
		case dir < 0:
			lo -= f * (hi - lo)
		default:
			hi += f * (hi - lo)
		}
		if best, ok := nearestLabel(t.Ticks(lo, hi), v, dir); ok {
			return best
		}
	}
	return v
}

// nearestLabel returns the labelled tick of ts nearest to v on the side
// dir, if there is one.
func nearestLabel(ts []plot.Tick, v float64, dir int) (best float64, ok bool) {
	for _, tk := range ts {
		beyond := dir < 0 && tk.Value <= v || dir > 0 && tk.Value >= v
		if tk.Label == "" || !beyond {
			continue
		}
		if !ok || math.Abs(tk.Value-v) < math.Abs(best-v) {
			best, ok = tk.Value, true
		}
	}
	return best, ok
}

// labelMantissas returns the mantissas m (1–9) of the labelled ticks
// m × 10^e of a log axis.
func labelMantissas(ts []plot.Tick) []float64 {
	seen := map[float64]bool{}
	var ms []float64
	for _, tk := range ts {
		if tk.Label == "" || !(tk.Value > 0) {
			continue
		}
		m := math.Round(tk.Value / math.Pow(10, math.Floor(math.Log10(tk.Value)+1e-9)))
		if !seen[m] {
			seen[m] = true
			ms = append(ms, m)
		}
	}
	return ms
}

// logLabelBeyond returns the nearest m × 10^e beyond v (dir −1: at or
// below, +1: at or above) with m among ms; v if ms is empty.
func logLabelBeyond(ms []float64, v float64, dir int) float64 {
	best := v
	found := false
	e0 := math.Floor(math.Log10(v))
	for de := -2.0; de <= 2; de++ {
		for _, m := range ms {
			c := m * math.Pow10(int(e0+de))
			if dir < 0 && c <= v && (!found || c > best) || dir > 0 && c >= v && (!found || c < best) {
				best, found = c, true
			}
		}
	}
	return best
}
