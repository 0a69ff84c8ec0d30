package handlers

import (
	"go/types"

	"github.com/retrylint/retrylint/analyzers/contract/internal/dlq"
)

// Decoding, as data (CONTRACT.md version 3): the payload decoders of the
// libraries services use, by import path, receiver type and name
// (goavro's NativeFromBinary and CloudEvents' ToEvent and DataAs match no
// name pattern). Functions and methods of any package also decode when
// decode-funcs names them or their name matches the decode pattern, as in
// version 2. The other calls of these libraries (cbor.Wellformed,
// json.Valid, msgpack.Marshal) are not decodes.
var decoders = dlq.FuncList{
	{PkgPath: "encoding/json", Name: "Unmarshal"},
	{PkgPath: "encoding/json", Recv: "Decoder", Name: "Decode"},
	{PkgPath: "encoding/xml", Name: "Unmarshal"},
	{PkgPath: "encoding/xml", Recv: "Decoder", Name: "Decode"},
	{PkgPath: "encoding/xml", Recv: "Decoder", Name: "DecodeElement"},
	{PkgPath: "encoding/gob", Recv: "Decoder", Name: "Decode"},
	{PkgPath: "encoding/gob", Recv: "Decoder", Name: "DecodeValue"},
	{PkgPath: "encoding/csv", Recv: "Reader", Name: "Read"},
	{PkgPath: "encoding/csv", Recv: "Reader", Name: "ReadAll"},
	{PkgPath: "google.golang.org/protobuf/proto", Name: "Unmarshal"},
	{PkgPath: "google.golang.org/protobuf/proto", Recv: "UnmarshalOptions", Name: "Unmarshal"},
	{PkgPath: "google.golang.org/protobuf/encoding/protojson", Name: "Unmarshal"},
	{PkgPath: "google.golang.org/protobuf/encoding/protojson", Recv: "UnmarshalOptions", Name: "Unmarshal"},
	{PkgPath: "google.golang.org/protobuf/encoding/prototext", Name: "Unmarshal"},
	{PkgPath: "google.golang.org/protobuf/encoding/prototext", Recv: "UnmarshalOptions", Name: "Unmarshal"},
	{PkgPath: "github.com/golang/protobuf/proto", Name: "Unmarshal"},
	{PkgPath: "github.com/golang/protobuf/proto", Name: "UnmarshalMerge"},
	{PkgPath: "github.com/vmihailenco/msgpack/v5", Name: "Unmarshal"},
	{PkgPath: "github.com/vmihailenco/msgpack/v5", Recv: "Decoder", Name: "Decode"},
	{PkgPath: "github.com/fxamacker/cbor/v2", Name: "Unmarshal"},
	{PkgPath: "github.com/fxamacker/cbor/v2", Recv: "DecMode", Name: "Unmarshal"},
	{PkgPath: "github.com/fxamacker/cbor/v2", Recv: "Decoder", Name: "Decode"},
	{PkgPath: "github.com/hamba/avro/v2", Name: "Unmarshal"},
	{PkgPath: "github.com/hamba/avro/v2", Recv: "API", Name: "Unmarshal"},
	{PkgPath: "github.com/hamba/avro/v2", Recv: "Decoder", Name: "Decode"},
	{PkgPath: "github.com/linkedin/goavro/v2", Recv: "Codec", Name: "NativeFromBinary"},
	{PkgPath: "gopkg.in/yaml.v3", Name: "Unmarshal"},
	{PkgPath: "gopkg.in/yaml.v3", Recv: "Decoder", Name: "Decode"},
	{PkgPath: "sigs.k8s.io/yaml", Name: "Unmarshal"},
	{PkgPath: "sigs.k8s.io/yaml", Name: "UnmarshalStrict"},
	{PkgPath: "github.com/BurntSushi/toml", Name: "Unmarshal"},
	{PkgPath: "github.com/BurntSushi/toml", Name: "Decode"},
	{PkgPath: "github.com/BurntSushi/toml", Recv: "Decoder", Name: "Decode"},
	{PkgPath: "github.com/json-iterator/go", Name: "Unmarshal"},
	{PkgPath: "github.com/json-iterator/go", Recv: "API", Name: "Unmarshal"},
	{PkgPath: "github.com/json-iterator/go", Recv: "Decoder", Name: "Decode"},
	{PkgPath: "github.com/bytedance/sonic", Name: "Unmarshal"},
	{PkgPath: "github.com/bytedance/sonic", Name: "UnmarshalString"},
	{PkgPath: "github.com/bytedance/sonic", Recv: "API", Name: "Unmarshal"},
	{PkgPath: "github.com/goccy/go-json", Name: "Unmarshal"},
	{PkgPath: "github.com/goccy/go-json", Recv: "Decoder", Name: "Decode"},
	{PkgPath: "github.com/segmentio/encoding/json", Name: "Unmarshal"},
	{PkgPath: "github.com/segmentio/encoding/json", Recv: "Decoder", Name: "Decode"},
	{PkgPath: cloudEventsBinding, Name: "ToEvent"},
	{PkgPath: "github.com/cloudevents/sdk-go/v2/event", Recv: "Event", Name: "DataAs"},
}

// cloudEventsBinding is the CloudEvents SDK's binding package: ToEvent
// decodes a protocol message (built from the broker's message, not from
// its payload bytes) into an event whose data is the payload.
const cloudEventsBinding = "github.com/cloudevents/sdk-go/v2/binding"

// readerFuncs wrap a payload without changing what it is: readers, and
// the decoders of the table's libraries built over one (any argument may
// be the reader: avro.NewDecoder(schema, r)).
var readerFuncs = [][2]string{
	{"bytes", "NewReader"}, {"bytes", "NewBuffer"}, {"bytes", "NewBufferString"}, {"strings", "NewReader"},
	{"bufio", "NewReader"}, {"io", "NopCloser"}, {"io", "LimitReader"},
	{"encoding/json", "NewDecoder"}, {"encoding/xml", "NewDecoder"}, {"encoding/gob", "NewDecoder"},
	{"encoding/csv", "NewReader"}, {"github.com/vmihailenco/msgpack/v5", "NewDecoder"},
	{"github.com/fxamacker/cbor/v2", "NewDecoder"}, {"github.com/hamba/avro/v2", "NewDecoder"},
	{"gopkg.in/yaml.v3", "NewDecoder"}, {"github.com/BurntSushi/toml", "NewDecoder"},
	{"github.com/json-iterator/go", "NewDecoder"}, {"github.com/goccy/go-json", "NewDecoder"},
	{"github.com/segmentio/encoding/json", "NewDecoder"},
}

// isDecoder reports whether fn decodes by the table or the configuration
// (decode-funcs).
func (m *Result) isDecoder(fn *types.Func) bool {
	return fn != nil && fn.Pkg() != nil && (decoders.Names(fn) || m.decoders.Names(fn))
}
