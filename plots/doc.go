// Package plots is loadlab's house style on gonum/plot, and the contract
// between the figure generators of each area and the driver
// examples/figures.
//
// # House style
//
// New makes a plot with a title, axis labels (say the unit in the label,
// as "time (s)"), fixed font sizes and light grid lines. Series are
// numbered: series i has the same colour (Okabe–Ito, colour-blind safe),
// marker and dash pattern in every figure, so "coded" can keep one look
// across a paper's worth of figures.
//
//   - AddLine: measured values, line with markers.
//   - AddCurve: closed forms, line without markers.
//   - AddPoints: markers only.
//   - AddBand: a mean with a translucent confidence band.
//   - AddErrorBars: markers with vertical error bars.
//   - AddVLine, AddHLine: dashed reference lines across the data area.
//   - AddBars: grouped bars in data units.
//   - AddHeatMap with ColorBar: a perceptually uniform heat map.
//   - LogX, LogY, XRange, YRange, LegendAt: options of New.
//
// LegendOutside draws a plot with its legend in a column beside the axes,
// so that the legend cannot hide data; Panels lays out several plots.
// Save writes PNG (150 dpi), SVG, PDF or EPS by file extension.
//
// # Figures
//
// A Figure is a named generator: Make(Config) returns a Result holding
// the drawing, the data behind it as a Table (written as CSV) and
// Headlines for the driver's summary table. Generators derive every random
// stream from Config.Seed and shrink their sizes when Config.Quick is set.
package plots
