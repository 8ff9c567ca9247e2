package codedload

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPresets: every preset's curves are valid configurations with the
// authors' sizes (spec §7.1), sorted by name.
func TestPresets(t *testing.T) {
	ps := Presets()
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
		for _, c := range p.Curves() {
			require.NotEmpty(t, c.Points, "%s %s", p.Name, c.Name)
			for _, pt := range c.Points {
				if pt.Build == nil {
					require.NoError(t, pt.Config.Validate(), "%s %s", p.Name, c.Name)
				}
			}
		}
	}
	assert.Equal(t, []string{"cache-size", "chunk", "server-count", "tradeoff", "zipf"}, names)
	sc := must(LookupPreset("server-count")).Curves()
	assert.Len(t, sc[1].Points, 12)
	assert.Equal(t, Coded{Ell: LogEll(5041), ChunkCap: 1}, sc[1].Points[11].Config.Strategy)
	assert.Equal(t, 21, len(must(LookupPreset("zipf")).Curves()[0].Points))
}

// TestRunPreset: the chunk preset runs as one Sweep of its points, and
// with uniform placement no request is in outage (spec §5).
func TestRunPreset(t *testing.T) {
	p := must(LookupPreset("chunk"))
	cs, err := RunPreset(p, 3, 1, nil)
	require.NoError(t, err)
	require.Len(t, cs, 1)
	res := must(Sweep(p.Curves()[0].Points, 3, 1, nil))
	assert.Equal(t, res, cs[0].Points)
	for _, pt := range cs[0].Points {
		assert.Zero(t, pt.Outage.Mean)
	}
}
