package competitive

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteSessions enumerates every joint schedule (k^(mT) of them) and
// returns the least cost within the capacities.
func bruteSessions(ss *Sessions) float64 {
	m, k, T := len(ss.In), ss.In[0].Servers(), ss.In[0].Slots()
	n := int(math.Pow(float64(k), float64(m*T)))
	best := math.Inf(1)
	sched := make([][]int, m)
	for i := range sched {
		sched[i] = make([]int, T)
	}
	for code := range n {
		c := code
		for i := range m {
			for t := range T {
				sched[i][t] = c % k
				c /= k
			}
		}
		if cost, err := ss.Cost(sched); err == nil {
			best = math.Min(best, cost)
		}
	}
	return best
}

// TestSessionsOptimum: spec §17.4. The joint program equals brute force
// on every drawn instance (m ≤ 3 sessions, k ≤ 3 servers, T ≤ 3 slots,
// integer costs: exact); its schedule is feasible and costs what it
// says; the sequential heuristic is feasible and never below it; with
// capacities that never bind both equal the sum of the sessions' optima.
func TestSessionsOptimum(t *testing.T) {
	rng := newRand(18)
	for n := range 400 {
		m, k, T := 1+rng.IntN(3), 2+rng.IntN(2), 1+rng.IntN(3)
		if m*T > 6 {
			T = 6 / m
		}
		C := float64(rng.IntN(4))
		ss := &Sessions{Capacity: make([]int, k)}
		for range m {
			ss.In = append(ss.In, randomInstance(rng, uniform, k, T, C, 5))
		}
		for ok := false; !ok; {
			total := 0
			for s := range ss.Capacity {
				ss.Capacity[s] = rng.IntN(3)
				total += ss.Capacity[s]
			}
			ok = total >= m
		}
		name := fmt.Sprintf("instance %d: m=%d k=%d T=%d cap=%v", n, m, k, T, ss.Capacity)
		opt, sched, err := SessionsOptimum(ss)
		require.NoError(t, err, name)
		require.Equal(t, bruteSessions(ss), opt, name)
		cost, err := ss.Cost(sched)
		require.NoError(t, err, name)
		require.Equal(t, opt, cost, name)
		seq, ssched, err := SessionsSequential(ss)
		require.NoError(t, err, name)
		c2, err := ss.Cost(ssched)
		require.NoError(t, err, name)
		require.Equal(t, seq, c2, name)
		require.GreaterOrEqual(t, seq, opt, name)
		free := &Sessions{In: ss.In, Capacity: make([]int, k)}
		sum := 0.0
		for s := range free.Capacity {
			free.Capacity[s] = m
		}
		for _, in := range ss.In {
			sum += OptimumCost(in)
		}
		o, _, err := SessionsOptimum(free)
		require.NoError(t, err)
		q, _, err := SessionsSequential(free)
		require.NoError(t, err)
		assert.Equal(t, sum, o, name)
		assert.Equal(t, sum, q, name)
		assert.GreaterOrEqual(t, opt, sum, name)
	}
}

// TestSessionsHand: two sessions that both want server 0, which holds
// one: the cheaper way is to send the session that loses less to server
// 1. Session 0 costs (0, 5) per slot, session 1 (0, 1); C = 1, T = 3:
// OPT = the (0, 5) session on 0 (1 + 0) + the (0, 1) one on 1 (1 + 3)
// = 5.
func TestSessionsHand(t *testing.T) {
	a, err := NewInstance([][]float64{{0, 5}, {0, 5}, {0, 5}}, 1)
	require.NoError(t, err)
	b, err := NewInstance([][]float64{{0, 1}, {0, 1}, {0, 1}}, 1)
	require.NoError(t, err)
	ss := &Sessions{In: []*Instance{b, a}, Capacity: []int{1, 1}}
	opt, sched, err := SessionsOptimum(ss)
	require.NoError(t, err)
	assert.Equal(t, 5.0, opt)
	assert.Equal(t, [][]int{{1, 1, 1}, {0, 0, 0}}, sched)
	// In this order the heuristic gives server 0 to session b first and
	// pays 1 + (1 + 15) = 17: a greedy order can be far from OPT.
	seq, _, err := SessionsSequential(ss)
	require.NoError(t, err)
	assert.Equal(t, 17.0, seq)
}
