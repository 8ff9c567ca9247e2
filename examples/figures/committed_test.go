package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCommittedIntervals checks the committed full-mode data: no figure
// shows a zero-width interval from few runs.
func TestCommittedIntervals(t *testing.T) {
	files, err := filepath.Glob("../../figures/*.csv")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		bad, err := zeroWidthIntervals(f)
		require.NoError(t, err)
		assert.Empty(t, bad)
	}
}
