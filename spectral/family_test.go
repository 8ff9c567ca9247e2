package spectral

import (
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFamilyDescriptor(t *testing.T) {
	for _, f := range AllFamilies() {
		for k := f.MinSize(); graphtest.Must(f.Order(k)) <= 64; k++ {
			g := graphtest.Must(f.Graph(k))
			require.Equal(t, graphtest.Must(f.Order(k)), g.Order(), "%v(%d)", f, k)
			ev := graphtest.Must(f.Spectrum(k))
			require.Len(t, ev, g.Order())
			// Spectrum and Kirchhoff must describe the same graph (+1
			// keeps the single node's K_f = 0 comparable; 1e-13 as above).
			assert.InEpsilon(t, graphtest.Must(KirchhoffFromSpectrum(ev))+1, graphtest.Must(f.Kirchhoff(k))+1, 1e-13, "%v(%d)", f, k)
			if g.Order() > 1 {
				got, err := KirchhoffIndex(g)
				require.NoError(t, err)
				// Unit-weight graphs with n ≤ 64: κ(A) ≤ 0.5·64² covers the
				// path, the worst case; relative error κ n ε ≈ 3e-11.
				assert.InEpsilon(t, graphtest.Must(f.Kirchhoff(k)), got, 1e-10, "%v(%d)", f, k)
			}
		}
	}
	assert.Equal(t, "torus", TorusFamily.String())
	assert.Equal(t, "Family(9)", Family(9).String())
	assert.Panics(t, func() { Family(9).Graph(3) })
	assert.Equal(t, 1<<5, graphtest.Must(HypercubeFamily.Order(5)))
}
