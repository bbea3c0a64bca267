/* SPDX-License-Identifier: MIT */
#include "quant_keys.h"

#include <stdio.h>
#include <string.h>

static int set_u32(skn_meta_list* l, const char* key, uint32_t v) {
    skn_meta_value value;
    memset(&value, 0, sizeof value);
    value.type = SKN_GGUF_TYPE_U32;
    value.u = v;
    return skn_meta_list_append(l, key, &value);
}

/* llama-quantize copies a path or dataset name into a 128-byte buffer:
 * at most 127 bytes survive. */
static int set_str127(skn_meta_list* l, const char* key, const char* s) {
    skn_meta_value value;
    memset(&value, 0, sizeof value);
    value.type = SKN_GGUF_TYPE_STRING;
    value.str = (char*)s;
    value.len = strlen(s) > 127 ? 127 : strlen(s);
    return skn_meta_list_append(l, key, &value); /* copies */
}

int skn_quant_metadata(const skn_quant_options* o, const skn_gguf* g, const skn_imatrix* im, int has_file_type,
                       uint32_t file_type, skn_meta_list* out) {
    int rc = skn_meta_list_init(out, g);
    skn_meta_list_remove(out, "general.file_type"); /* replaced, or gone for a type llama.cpp has no number for */
    if (rc == 0) rc = set_u32(out, "general.quantization_version", kQuantizationVersion);
    if (rc == 0 && has_file_type) rc = set_u32(out, "general.file_type", file_type);
    skn_meta_list_remove(out, "split.no");
    skn_meta_list_remove(out, "split.count");
    skn_meta_list_remove(out, "split.tensors.count");
    for (int i = 0; rc == 0 && i < o->n_kv; ++i) rc = skn_meta_list_append(out, o->kv[i].key, &o->kv[i].value);
    if (rc == 0 && im != NULL) {
        skn_imatrix_props p;
        memset(&p, 0, sizeof p);
        p.struct_size = sizeof p;
        const char* dataset = NULL;
        if (skn_imatrix_info(im, &p) != SKN_OK) p.chunk_count = -1;
        rc = set_str127(out, "quantize.imatrix.file", o->imatrix_path);
        if (rc == 0 && p.dataset_count > 0 && skn_imatrix_dataset(im, 0, &dataset, NULL) == SKN_OK)
            rc = set_str127(out, "quantize.imatrix.dataset", dataset);
        if (rc == 0) rc = set_u32(out, "quantize.imatrix.entries_count", (uint32_t)skn_imatrix_count(im));
        if (rc == 0 && p.chunk_count > 0) rc = set_u32(out, "quantize.imatrix.chunks_count", (uint32_t)p.chunk_count);
    }
    if (rc != 0) fprintf(stderr, "skn quantize: out of memory building the metadata\n");
    return rc;
}

void skn_quant_override_facts(const skn_quant_options* o, skn_model_facts* m) {
    if (m->arch[0] == 0) return;
    struct {
        const char* suffix;
        int64_t* field;
    } read[] = {{"block_count", &m->n_layer},
                {"expert_count", &m->n_expert},
                {"attention.head_count", &m->n_head},
                {"attention.head_count_kv", &m->n_head_kv}};
    for (int i = 0; i < o->n_kv; ++i) {
        if (o->kv[i].value.type != SKN_GGUF_TYPE_U32) continue; /* int overrides */
        for (size_t k = 0; k < sizeof read / sizeof read[0]; ++k) {
            char key[160];
            snprintf(key, sizeof key, "%s.%s", m->arch, read[k].suffix);
            if (strcmp(o->kv[i].key, key) != 0) continue;
            *read[k].field = (int64_t)o->kv[i].value.u;
            if (read[k].field == &m->n_layer) m->n_layer_guessed = 0;
        }
    }
}
