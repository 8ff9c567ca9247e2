package mobility

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
)

// FuzzRandomWaypoint: any accepted (side, speed, T) gives a walk inside
// the square whose steps never exceed the speed.
func FuzzRandomWaypoint(f *testing.F) {
	f.Add(1000.0, 10.0, 50)
	f.Add(1.0, 100.0, 20)
	f.Add(-1.0, 10.0, 5)
	f.Add(math.NaN(), 1.0, 3)
	f.Fuzz(func(t *testing.T, side, speed float64, T int) {
		if T > 2000 {
			T %= 2000
		}
		if speed > 0 && side/speed > 1e6 {
			return // a single leg would take more slots than we sample
		}
		w, err := RandomWaypoint(side, speed, T, mc.Source(1))
		if err != nil {
			return
		}
		// Relative 1e-9: rounding of positions accumulated over legs.
		slack := 1e-9 * (side + speed)
		for s, p := range w.Pos {
			if p.X < -slack || p.X > side+slack || p.Y < -slack || p.Y > side+slack {
				t.Fatalf("slot %d at %v outside [0, %v]²", s, p, side)
			}
			if s > 0 && p.Dist(w.Pos[s-1]) > speed*(1+1e-9) {
				t.Fatalf("slot %d moved %v > %v", s, p.Dist(w.Pos[s-1]), speed)
			}
		}
	})
}

// FuzzScenarios: Mesh and ChatRoom either reject their parameters or
// produce a valid instance.
func FuzzScenarios(f *testing.F) {
	f.Add(3, 20, 50.0, 3.0, 10.0)
	f.Add(-1, 5, -1.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, grid, slots int, setup, users, stay float64) {
		grid, slots = grid%8, slots%200
		if users > 50 || stay > 1e6 {
			return
		}
		for _, sc := range []Scenario{Mesh{Grid: grid, Slots: slots, Setup: setup}, ChatRoom{Grid: grid, Slots: slots, Setup: setup, Users: users, Stay: stay}} {
			in, _, err := sc.Sample(mc.Source(2))
			if err != nil {
				continue
			}
			if in.Slots() < 1 || in.Servers() < 1 || !(in.Setup() >= 0) {
				t.Fatalf("%T accepted an invalid instance: T=%d k=%d C=%v", sc, in.Slots(), in.Servers(), in.Setup())
			}
		}
	})
}
