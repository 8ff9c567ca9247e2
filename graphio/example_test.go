package graphio_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// A weighted edge list with a header, string labels and a duplicate link
// that the file means as two parallel cables (conductances add).
func ExampleReadEdgeList() {
	src := `source,target,weight
paris,london,2
london,berlin,1
berlin,paris,0.5
paris,london,1
`
	d, err := graphio.ReadEdgeList(strings.NewReader(src), &graphio.Options{Duplicates: graphio.SumDuplicates})
	if err != nil {
		log.Fatal(err)
	}
	kf, err := spectral.KirchhoffIndex(d.Graph)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Labels, "edges:", d.Graph.Size(), "merged:", d.Merged)
	// R = 0.3 + 0.7 + 0.8 by series and parallel conductances.
	fmt.Printf("w(paris, london) = %g, Kirchhoff index = %.4g\n", d.Graph.Weight(0, 1), kf)
	// Output:
	// [paris london berlin] edges: 3 merged: 1
	// w(paris, london) = 3, Kirchhoff index = 1.8
}

// Errors name the line, the column and the value.
func ExampleParseError() {
	_, err := graphio.ReadEdgeList(strings.NewReader("a,b,1\nb,c,-2\n"), nil)
	fmt.Println(err)
	// Output:
	// graphio: 2: column 3 = "-2": weight must be positive and finite, within [2^-500, 2^500]: invalid argument
}

// A Topology Zoo style file: labels from the "label" attribute, the
// link speed as the weight, and one link without a speed, which the
// reader refuses unless a default weight is given.
func ExampleReadGraphML() {
	src := `<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="d0" for="node" attr.name="label" attr.type="string"/>
  <key id="d1" for="edge" attr.name="LinkSpeed" attr.type="double"/>
  <graph edgedefault="undirected">
    <node id="0"><data key="d0">Paris</data></node>
    <node id="1"><data key="d0">London</data></node>
    <node id="2"><data key="d0">Berlin</data></node>
    <edge source="0" target="1"><data key="d1">10</data></edge>
    <edge source="1" target="2"/>
  </graph>
</graphml>`
	o := &graphio.Options{Label: "label", Weight: "LinkSpeed"}
	_, err := graphio.ReadGraphML(strings.NewReader(src), o)
	fmt.Println(err)
	o.DefaultWeight = 1
	d, err := graphio.ReadGraphML(strings.NewReader(src), o)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Labels, d.Graph.Edges(), "defaulted:", d.Defaulted)
	// Output:
	// graphio: 9: <edge source="1" target="2"> LinkSpeed = "": no <data key="d1"> for the weight; set Options.DefaultWeight to weigh the edges that have none: invalid argument
	// [Paris London Berlin] [{0 1 10} {1 2 1}] defaulted: 1
}

func ExampleWriteGraphML() {
	g, err := wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 2, W: 0.5}})
	if err != nil {
		log.Fatal(err)
	}
	if err := graphio.WriteGraphML(os.Stdout, g, []string{"edge-a", "core", "edge-b"}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <graphml xmlns="http://graphml.graphdrawing.org/xmlns">
	//   <key id="d0" for="edge" attr.name="weight" attr.type="double"/>
	//   <graph id="G" edgedefault="undirected">
	//     <node id="edge-a"/>
	//     <node id="core"/>
	//     <node id="edge-b"/>
	//     <edge source="edge-a" target="core"><data key="d0">2</data></edge>
	//     <edge source="core" target="edge-b"><data key="d0">0.5</data></edge>
	//   </graph>
	// </graphml>
}
