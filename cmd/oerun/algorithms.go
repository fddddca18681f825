package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/oe-lab/oe/lib/embed"
)

func init() {
	register("algorithms", command{
		summary: "list the methods: passive or active, CPU or GPU, and their parameters with defaults and meaning",
		run:     algorithmsCommand,
	})
}

func algorithmsCommand(args []string) error {
	fs := newFlags("algorithms", "[NAME ...]")
	if err := fs.Parse(args); err != nil {
		return err
	}
	names := fs.Args()
	if len(names) == 0 {
		names = embed.Names()
	}
	infos := make([]embed.Info, len(names))
	for i, name := range names {
		info, err := embed.Lookup(name)
		if err != nil {
			return err
		}
		infos[i] = info
	}
	writeAlgorithms(os.Stdout, infos)
	return nil
}

// writeAlgorithms lists the methods, each with its kind, backends, version,
// description and parameters (name, default, meaning), and a closing line
// on whether CUDA works here.
func writeAlgorithms(w io.Writer, infos []embed.Info) {
	cudaProbed := false
	var cudaErr error // why CUDA does not work here
	for i, info := range infos {
		if i > 0 {
			fmt.Fprintln(w)
		}
		kind := "passive (learns from a triplet file or from triplets drawn from --dataset/--points)"
		if info.Active {
			kind = "active (asks an oracle over --dataset or --points; oerun embed prints the queries)"
		}
		backends := []string{embed.BackendCPU.String()}
		for b := range info.Backends {
			backends = append(backends, b.String())
		}
		sort.Strings(backends)
		fmt.Fprintf(w, "%s  %s\n", info.Name, info.Doc)
		fmt.Fprintf(w, "  %s; runs on %s; version %d\n", kind, strings.Join(backends, ", "), info.Version)
		if len(info.Optimizers) > 0 {
			names := make([]string, len(info.Optimizers))
			for i, o := range info.Optimizers {
				names[i] = o.String()
			}
			names[0] += " (default)"
			fmt.Fprintf(w, "  --optimizer %s\n", strings.Join(names, ", "))
		}
		if info.Factored != "" {
			fmt.Fprintf(w, "  the same objective over X: %s (what to use on real data; bench/gram.md)\n", info.Factored)
		}
		if info.Resumable {
			with := ""
			if len(info.Optimizers) > 1 {
				with = " with " + info.Optimizers[0].String()
			}
			fmt.Fprintf(w, "  resumable on the cpu%s: oerun run keeps a checkpoint, and a run cut short goes on where it stopped\n", with)
		}
		if probe := info.Backends[embed.BackendCUDA]; probe != nil && !cudaProbed {
			cudaProbed, cudaErr = true, probe()
		}
		if len(info.Params) == 0 {
			fmt.Fprintln(w, "  no parameters")
			continue
		}
		width := 0
		for _, p := range info.ParamNames() {
			width = max(width, len(p)+1+len(strconv.FormatFloat(info.Params[p], 'g', -1, 64)))
		}
		for _, p := range info.ParamNames() {
			def := p + "=" + strconv.FormatFloat(info.Params[p], 'g', -1, 64)
			fmt.Fprintf(w, "  --param %-*s  %s\n", width+1, def, info.ParamDocs[p])
		}
	}
	switch {
	case cudaProbed && cudaErr == nil:
		fmt.Fprintln(w, "\ncuda: works in this binary on this machine (--backend cuda)")
	case cudaProbed:
		fmt.Fprintf(w, "\ncuda: not here (%v)\n", cudaErr)
	}
}
