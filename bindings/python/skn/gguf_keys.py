# SPDX-License-Identifier: MIT
"""The GGUF value types llama.cpp requires for its metadata keys.

llama.cpp's model loader compares a key's stored type with the one it reads
it as and refuses the file on any difference (no widening: an i32
"llama.block_count" fails where a u32 is expected). These are the types its
Python writer (gguf-py's GGUFWriter.add_* helpers) stores and its loader
reads, restated from llama.cpp's gguf-py/gguf/constants.py, gguf_writer.py
and src/llama-model-loader.cpp; GGUFWriter.add uses them for a key it
knows unless `type=` says otherwise."""
from __future__ import annotations

import re
from typing import Dict, Optional

U32, I32, U16, F32, BOOL, STR = "u32", "i32", "u16", "f32", "bool", "string"
U8_ARRAY = "array[u8]"  # gguf-py stores a bytes value as an array of u8

_EXACT: Dict[str, str] = {
    "general.type": STR, "general.architecture": STR, "general.quantization_version": U32,
    "general.alignment": U32, "general.file_type": U32,
    "general.sampling.sequence": STR, "general.sampling.top_k": I32, "general.sampling.top_p": F32,
    "general.sampling.min_p": F32, "general.sampling.xtc_probability": F32,
    "general.sampling.xtc_threshold": F32, "general.sampling.temp": F32,
    "general.sampling.penalty_last_n": I32, "general.sampling.penalty_repeat": F32,
    "general.sampling.mirostat": I32, "general.sampling.mirostat_tau": F32, "general.sampling.mirostat_eta": F32,
    "general.base_model.count": U32, "general.dataset.count": U32,
    "split.no": U16, "split.count": U16, "split.tensors.count": I32,
    "tokenizer.ggml.model": STR, "tokenizer.ggml.pre": STR, "tokenizer.ggml.token_type_count": U32,
    "tokenizer.ggml.add_bos_token": BOOL, "tokenizer.ggml.add_eos_token": BOOL,
    "tokenizer.ggml.add_sep_token": BOOL, "tokenizer.ggml.add_space_prefix": BOOL,
    "tokenizer.ggml.remove_extra_whitespaces": BOOL, "tokenizer.ggml.precompiled_charsmap": U8_ARRAY,
    "tokenizer.chat_template": STR, "tokenizer.huggingface.json": STR, "tokenizer.rwkv.world": STR,
    "adapter.type": STR, "adapter.lora.alpha": F32, "adapter.lora.task_name": STR,
    "adapter.lora.prompt_prefix": STR,
    "imatrix.chunk_count": U32, "imatrix.chunk_size": U32,
}
for _name in ("name", "author", "version", "organization", "finetune", "basename", "description", "quantized_by",
              "size_label", "license", "license.name", "license.link", "url", "doi", "uuid", "repo_url",
              "source.url", "source.doi", "source.uuid", "source.repo_url"):
    _EXACT["general." + _name] = STR
# Special token ids: llama.cpp's vocabulary reads every one as a u32.
for _name in ("bos", "eos", "eot", "eom", "unknown", "seperator", "padding", "mask", "fim_pre", "fim_suf",
              "fim_mid", "fim_pad", "fim_rep", "fim_sep", "prefix", "suffix", "middle"):
    _EXACT["tokenizer.ggml.%s_token_id" % _name] = U32

# Keys under the architecture's name ("llama.block_count"): the part after "<arch>.".
_PER_ARCH: Dict[str, str] = {}
for _names, _type in (
        (("vocab_size", "context_length", "embedding_length", "embedding_length_out", "features_length",
          "block_count", "leading_dense_block_count", "full_attention_interval", "feed_forward_length",
          "expert_feed_forward_length", "expert_shared_feed_forward_length", "expert_chunk_feed_forward_length",
          "expert_count", "expert_used_count", "expert_shared_count", "expert_group_count",
          "expert_group_used_count", "expert_gating_func", "experts_per_group", "moe_every_n_layers",
          "moe_latent_size", "nextn_predict_layers", "n_deepstack_layers", "pooling_type",
          "decoder_start_token_id", "decoder_block_count", "rescale_every_n_layers", "time_mix_extra_dim",
          "time_decay_extra_dim", "token_shift_count", "interleave_moe_layer_step", "altup.active_idx",
          "altup.num_inputs", "embedding_length_per_layer_input",
          "attention.head_count", "attention.head_count_kv", "attention.key_length", "attention.value_length",
          "attention.group_norm_groups", "attention.q_lora_rank", "attention.kv_lora_rank",
          "attention.decay_lora_rank", "attention.iclr_lora_rank", "attention.value_residual_mix_lora_rank",
          "attention.gate_lora_rank", "attention.relative_buckets_count", "attention.sliding_window",
          "attention.temperature_length", "attention.key_length_mla", "attention.value_length_mla",
          "attention.key_length_swa", "attention.value_length_swa", "attention.shared_kv_layers",
          "attention.sliding_window_pattern", "attention.indexer.head_count", "attention.indexer.key_length",
          "attention.indexer.top_k",
          "rope.dimension_count", "rope.dimension_count_swa", "rope.scaling.original_context_length",
          "ssm.conv_kernel", "ssm.inner_size", "ssm.state_size", "ssm.time_step_rank", "ssm.group_count",
          "kda.head_dim", "wkv.head_size", "posnet.embedding_length", "posnet.block_count",
          "convnext.embedding_length", "convnext.block_count", "shortconv.l_cache"), U32),
        (("expert_weights_scale", "expert_group_scale", "logit_scale", "attn_logit_softcapping",
          "router_logit_softcapping", "final_logit_softcapping", "residual_scale", "embedding_scale",
          "attention.max_alibi_bias", "attention.clamp_kqv", "attention.layer_norm_epsilon",
          "attention.layer_norm_rms_epsilon", "attention.group_norm_epsilon", "attention.scale",
          "attention.output_scale", "attention.temperature_scale",
          "rope.freq_base", "rope.freq_base_swa", "rope.scaling.factor", "rope.scaling.alpha",
          "rope.scaling.attn_factor", "rope.scaling.yarn_log_multiplier", "rope.scaling.yarn_ext_factor",
          "rope.scaling.yarn_attn_factor", "rope.scaling.yarn_beta_fast", "rope.scaling.yarn_beta_slow"), F32),
        (("use_parallel_residual", "expert_weights_norm", "swin_norm", "attention.causal", "rope.scaling.finetuned",
          "ssm.dt_b_c_rms"), BOOL),
        (("tensor_data_layout", "rope.scaling.type"), STR)):
    for _name in _names:
        _PER_ARCH[_name] = _type

# Per-layer values: llama.cpp takes one number for every layer or an array
# with one per layer (of i32 or u32 numbers; bools for the pattern).
MAY_BE_ARRAY = frozenset(("feed_forward_length", "attention.head_count", "attention.head_count_kv",
                          "attention.sliding_window_pattern"))

# Namespaces that are not an architecture's.
_NOT_ARCH = frozenset(("general", "tokenizer", "split", "adapter", "imatrix", "quantize", "clip", "skn"))
_PROVENANCE = re.compile(r"^general\.(base_model|dataset)\.\d+\.(name|author|version|organization|description|url|"
                         r"doi|uuid|repo_url)$")


def llama_key_type(key: str) -> Optional[str]:
    """The GGUF type llama.cpp requires for metadata `key` ("u32", "f32", "bool",
    "string", "i32", "u16", "array[u8]"), or None for a key it has no fixed type
    for. "<arch>.block_count" is u32 for any architecture name."""
    if key in _EXACT:
        return _EXACT[key]
    if _PROVENANCE.match(key):
        return STR
    arch, _, rest = key.partition(".")
    if arch and arch not in _NOT_ARCH:
        return _PER_ARCH.get(rest)
    return None


def may_be_array(key: str) -> bool:
    """Whether llama.cpp also takes an array (one value per layer) for `key`."""
    arch, _, rest = key.partition(".")
    return arch not in _NOT_ARCH and rest in MAY_BE_ARRAY
