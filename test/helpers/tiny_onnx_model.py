"""Writes a tiny BERT-shaped ONNX model for mnemo's transformers embedder tests.

Run with Debian's /usr/bin/python3 (python3-onnx); the pyenv python3 on PATH has no onnx.
Reads a JSON spec on stdin: {"output": path, "embeddings": [[float, ...], ...]}.

The graph has the inputs and output transformers.js expects of a BERT encoder (input_ids, attention_mask,
token_type_ids -> last_hidden_state) but computes only a lookup of each token's row, so a test can design
the vectors and predict the mean-pooled result exactly.
"""

import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main() -> None:
    spec = json.load(sys.stdin)
    embeddings = np.asarray(spec["embeddings"], dtype=np.float32)
    if embeddings.ndim != 2:
        raise SystemExit("embeddings must be a 2-D matrix")
    dim = int(embeddings.shape[1])

    inputs = [
        helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])
        for name in ("input_ids", "attention_mask", "token_type_ids")
    ]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "seq", dim])
    lookup = helper.make_node("Gather", ["word_embeddings", "input_ids"], ["last_hidden_state"], axis=0)
    graph = helper.make_graph(
        [lookup],
        "tiny_bert",
        inputs,
        [output],
        initializer=[numpy_helper.from_array(embeddings, "word_embeddings")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="mnemo-tests")
    # onnxruntime-node 1.30 reads ir_version 8; newer onnx packages would default to a higher one.
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, spec["output"])


if __name__ == "__main__":
    main()
