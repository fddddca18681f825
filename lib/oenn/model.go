package oenn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/internal/atomicfile"
	"github.com/oe-lab/oe/lib/internal/numeric"
)

// Model is a trained EmbNet together with the input codes of the items it
// embeds.
type Model struct {
	codes *codes
	net   *embNet
}

// Items returns the number of items the model embeds.
func (m *Model) Items() int { return m.codes.n }

// Dim returns the embedding dimension.
func (m *Model) Dim() int { return m.net.dim }

// Width returns the width of the hidden layers.
func (m *Model) Width() int { return m.net.width }

// InputLen returns the length of the input codes.
func (m *Model) InputLen() int { return m.net.in }

// Encoding returns the input encoding.
func (m *Model) Encoding() Encoding { return m.codes.enc }

// Embedding returns the network's output for every item, one row per item.
func (m *Model) Embedding() *mat.Dense {
	out := make([]float32, m.codes.n*m.net.dim)
	embedItems(m.net, m.codes, m.net.newWorkspace(min(m.codes.n, 4096), 0), out)
	emb := mat.NewDense(m.codes.n, m.net.dim, nil)
	raw := emb.RawMatrix().Data
	for i, v := range out {
		raw[i] = float64(v)
	}
	return emb
}

// The model file is little-endian: the magic, a format version, six uint32
// (items, dim, width, input length, hidden layers, encoding), a uint64
// parameter count, the code table (items × input length float32, for the
// binary and random encodings, not for binary index codes), the parameters
// (float32, layer by layer: weights in×out row-major, then biases), and a
// CRC-32 (IEEE) of everything before it. Version 1, written before binary
// codes were permuted, had encoding 0 for binary index codes and a table
// for random codes only; ReadModel reads it as such.
const (
	modelMagic   = "OENNMODL"
	modelVersion = 2
	headerBytes  = len(modelMagic) + 4 + 6*4 + 8
)

// ErrBadModel is wrapped by every error about a model file that is not a
// valid OENN model.
var ErrBadModel = errors.New("not a valid OENN model")

// WriteTo writes the model in the binary format described above.
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	buf.WriteString(modelMagic)
	hdr := []uint32{modelVersion, uint32(m.codes.n), uint32(m.net.dim), uint32(m.net.width),
		uint32(m.net.in), hiddenLayers, uint32(m.codes.enc)}
	for _, v := range hdr {
		binary.Write(&buf, binary.LittleEndian, v)
	}
	binary.Write(&buf, binary.LittleEndian, uint64(len(m.net.params)))
	binary.Write(&buf, binary.LittleEndian, m.codes.table)
	binary.Write(&buf, binary.LittleEndian, m.net.params)
	binary.Write(&buf, binary.LittleEndian, crc32.ChecksumIEEE(buf.Bytes()))
	return buf.WriteTo(w)
}

// Save writes the model to path atomically (lib/internal/atomicfile).
func (m *Model) Save(path string) error {
	err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := m.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("oenn: save model %s: %w", path, err)
	}
	return nil
}

// Load reads a model saved by Save. A file that is not a model, was written
// by another format version, or is truncated or corrupted gives an error
// naming the file and wrapping ErrBadModel.
func Load(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("oenn: load model: %w", err)
	}
	defer f.Close()
	m, err := ReadModel(f)
	if err != nil {
		return nil, fmt.Errorf("oenn: load model %s: %w", path, err)
	}
	return m, nil
}

// ReadModel reads a model in the format WriteTo writes.
func ReadModel(r io.Reader) (*Model, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrBadModel}, args...)...)
	}
	if len(data) < len(modelMagic) || string(data[:len(modelMagic)]) != modelMagic {
		return nil, bad("wrong magic (expected %q)", modelMagic)
	}
	if len(data) < headerBytes+4 {
		return nil, bad("truncated header (%d bytes)", len(data))
	}
	le := binary.LittleEndian
	hdr := make([]uint32, 7)
	for i := range hdr {
		hdr[i] = le.Uint32(data[len(modelMagic)+4*i:])
	}
	version, n, dim, width, in, layers, enc := hdr[0], int(hdr[1]), int(hdr[2]), int(hdr[3]), int(hdr[4]), hdr[5], Encoding(hdr[6])
	if version != modelVersion && version != 1 {
		return nil, bad("format version %d, this program reads versions 1 and %d", version, modelVersion)
	}
	if version == 1 && enc == Binary {
		enc = BinaryIndex
	}
	if got, want := le.Uint32(data[len(data)-4:]), crc32.ChecksumIEEE(data[:len(data)-4]); got != want {
		return nil, bad("checksum mismatch (file %08x, content %08x): truncated or corrupted", got, want)
	}
	if layers != hiddenLayers {
		return nil, bad("%d hidden layers, expected %d", layers, hiddenLayers)
	}
	if err := enc.check(); err != nil {
		return nil, bad("%v", err)
	}
	if n < 1 || dim < 1 || width < 1 || in < 1 {
		return nil, bad("invalid shape: items %d, dim %d, width %d, input length %d", n, dim, width, in)
	}
	net := newEmbNet(in, width, dim)
	if np := le.Uint64(data[headerBytes-8:]); np != uint64(len(net.params)) {
		return nil, bad("%d parameters, the shape needs %d", np, len(net.params))
	}
	nCodes := 0
	if enc != BinaryIndex {
		nCodes = n * in
	}
	if want := headerBytes + 4*(nCodes+len(net.params)) + 4; len(data) != want {
		return nil, bad("%d bytes, the shape needs %d", len(data), want)
	}
	c := &codes{enc: enc, n: n, len: in}
	body := data[headerBytes:]
	if enc != Random && n > 1<<min(in, 62) {
		return nil, bad("binary codes of length %d cannot tell %d items apart", in, n)
	}
	if nCodes > 0 {
		c.table = make([]float32, nCodes)
		readFloats(c.table, body)
		body = body[4*nCodes:]
	}
	readFloats(net.params, body)
	if !numeric.AllFinite(net.params) || !numeric.AllFinite(c.table) {
		return nil, bad("non-finite parameter")
	}
	return &Model{codes: c, net: net}, nil
}

func readFloats(dst []float32, src []byte) {
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
	}
}
