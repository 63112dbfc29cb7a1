"""Protobuf files for tests/cli/test_extract_models.sh written field by field (no TensorFlow or
Caffe install): a Caffe .caffemodel and a TensorFlow GraphDef, and a reader listing a file's
records.

  model_bytes.py caffemodel OUT           NetParameter: name, an input, LayerParameters with blobs
  model_bytes.py graphdef OUT             GraphDef: x -> mm (w) -> relu -> out
  model_bytes.py layers FILE FIELD        the names (field 1) of the records FIELD, one a line
"""
import sys


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def ld(number, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def vi(number, value):
    return varint(number << 3) + varint(value)


def fields(data):
    pos = 0
    while pos < len(data):
        tag = 0
        shift = 0
        while True:
            b = data[pos]; pos += 1
            tag |= (b & 0x7F) << shift; shift += 7
            if not b & 0x80:
                break
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            while data[pos] & 0x80:
                pos += 1
            pos += 1
            yield number, None
        elif wire == 2:
            n = 0; shift = 0
            while True:
                b = data[pos]; pos += 1
                n |= (b & 0x7F) << shift; shift += 7
                if not b & 0x80:
                    break
            yield number, data[pos:pos + n]
            pos += n
        else:
            raise ValueError("wire type %d" % wire)


def caffemodel():
    blob = ld(5, b"\x00\x00\x80\x3f")  # BlobProto.data, packed float 1.0
    layers = b""
    for name, blobs in (("data", 0), ("conv1", 2), ("relu1", 0), ("pool1", 0), ("ip1", 2)):
        layers += ld(100, ld(1, name) + ld(2, "X") + blob * blobs + vi(77, 9))
    return ld(1, "tiny") + ld(3, "data") + layers + vi(6, 1)


def graphdef():
    def attr(key, value):
        return ld(5, ld(1, key) + ld(2, value))
    def node(name, op, inputs, extra=b""):
        return ld(1, ld(1, name) + ld(2, op) + b"".join(ld(3, i) for i in inputs) + extra)
    t = attr("T", vi(6, 1))
    shape = attr("_output_shapes", ld(1, ld(7, ld(2, vi(1, 1)) + ld(2, vi(1, 3)))))
    return (ld(4, vi(1, 27)) + node("x", "Placeholder", [], attr("dtype", vi(6, 1)))
            + node("w", "Const", [], attr("dtype", vi(6, 1)))
            + node("mm", "MatMul", ["x", "w"], t + shape)
            + node("relu", "Relu", ["mm"], t + shape) + node("out", "Identity", ["relu:0"], t))


if __name__ == "__main__":
    if sys.argv[1] == "layers":
        data = open(sys.argv[2], "rb").read()
        for number, payload in fields(data):
            if number == int(sys.argv[3]):
                name = [p for n, p in fields(payload) if n == 1]
                print(name[0].decode() if name else "")
    else:
        open(sys.argv[2], "wb").write(caffemodel() if sys.argv[1] == "caffemodel" else graphdef())
