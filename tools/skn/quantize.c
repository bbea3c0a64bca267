/* SPDX-License-Identifier: MIT */
/* skn quantize IN.gguf [OUT.gguf] TYPE [NTHREADS]: convert a GGUF file's
 * weights to a llama.cpp file-type preset (Q4_K_M, ...) or to one format,
 * streaming through libskn's GGUF writer: memory holds the metadata and a
 * few million values of one tensor, never the model. OUT is written through
 * the tools' safe output (safe_output.h). On the public C API only. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "meta_list.h"
#include "quant_args.h"
#include "quant_choose.h"
#include "quant_keys.h"
#include "quant_model.h"
#include "quant_plan.h"
#include "quant_progress.h"
#include "quant_rules.h"
#include "quant_stream.h"
#include "safe_output.h"
#include "skn/skn.h"
#include "tensor_copy.h"
#include "tensor_util.h"

/* A split model's first file names the others; skn reads one file. */
static int refuse_split_input(const skn_gguf* g, const char* path) {
    int64_t k = -1;
    uint16_t count = 0;
    if (skn_gguf_find_key(g, "split.count", &k) != SKN_OK || k < 0 || skn_gguf_get_u16(g, k, &count) != SKN_OK ||
        count <= 1)
        return 0;
    fprintf(stderr,
            "skn quantize: %s is one of %u split files (split.count); skn quantize reads one file: merge them "
            "first (skn merge %s MERGED.gguf), then quantize MERGED.gguf and split the result again if needed\n",
            path, (unsigned)count, path);
    return 1;
}

/* llama-quantize refuses a GGUF imatrix without imatrix.chunk_count and
 * imatrix.chunk_size (its "missing imatrix metadata"). */
static int check_imatrix(const skn_imatrix* im, const char* path) {
    skn_imatrix_props p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    if (skn_imatrix_info(im, &p) != SKN_OK) return 1;
    if (p.form == SKN_IMATRIX_GGUF && (p.chunk_count < 0 || p.chunk_size < 0)) {
        fprintf(stderr,
                "skn quantize: --imatrix %s: a GGUF imatrix without imatrix.chunk_count or imatrix.chunk_size, which "
                "llama-quantize refuses too (\"missing imatrix metadata\"): make it again with llama-imatrix\n",
                path);
        return 1;
    }
    return 0;
}

/* Declare row r's output tensor: a kept tensor as stored, a converted one
 * in its new format. */
static skn_status declare(skn_gguf_writer* w, const skn_quant_row* r) {
    if (r->kept != NULL) return skn_copy_declare(w, &r->in);
    return skn_gguf_writer_declare_tensor(w, r->in.name, r->out_format, r->in.rank, r->in.ne);
}

/* Refuse a conversion that needs importance data it does not have. */
static int check_importance(const skn_quant_options* o, const skn_quant_row* plan, const int64_t* order, int64_t nt,
                            const skn_imatrix* im) {
    for (int64_t k = 0; k < nt; ++k) {
        const skn_quant_row* r = &plan[order[k]];
        if (!r->needs_imatrix || r->kept != NULL || r->repack || r->importance != NULL) continue;
        if (im == NULL)
            fprintf(stderr,
                    "skn quantize: %s puts tensor \"%s\" in %s, which needs an importance matrix: pass --imatrix FILE "
                    "(llama-imatrix's output; --dry-run shows the plan)\n",
                    o->type_arg, r->in.name, skn_quant_format_name(r->out_format));
        else
            fprintf(stderr,
                    "skn quantize: %s puts tensor \"%s\" in %s, which needs an importance matrix, and %s has no entry "
                    "for it (skn imatrix %s lists the entries)\n",
                    o->type_arg, r->in.name, skn_quant_format_name(r->out_format), o->imatrix_path, o->imatrix_path);
        return 1;
    }
    return 0;
}

int skn_cmd_quantize(int argc, char** argv) {
    skn_quant_options o;
    memset(&o, 0, sizeof o);
    o.threads = skn_cli_online_cpus();
    if (o.threads > kQuantMaxThreads) o.threads = kQuantMaxThreads;
    int rc = skn_quant_parse_args(argc, argv, &o);
    if (rc != 0) {
        skn_quant_options_free(&o);
        return rc < 0 ? 0 : rc;
    }
    /* OUT first: a directory, the input itself or a missing directory is
     * found before any work. */
    skn_output* out = NULL;
    const char* inputs[1] = {o.in_path};
    if (o.dry_run ? (o.out_path != NULL && skn_output_check("quantize", o.out_path, inputs, 1, o.force_overwrite) != 0)
                  : (out = skn_output_open("quantize", o.out_path, inputs, 1, o.force_overwrite)) == NULL) {
        skn_quant_options_free(&o);
        return 1;
    }
    rc = 1;
    const double t0 = skn_now();
    skn_gguf* g = NULL;
    skn_status st = skn_tool_open(o.in_path, &g);
    if (st != SKN_OK) {
        fprintf(stderr, "skn quantize: %s: %s\n", skn_status_name(st), skn_last_error());
        skn_output_abort(out);
        skn_quant_options_free(&o);
        return 1;
    }
    const int64_t nt = skn_gguf_tensor_count(g);
    skn_quant_row* plan = calloc((size_t)(nt > 0 ? nt : 1), sizeof *plan);
    const char** names = calloc((size_t)(nt > 0 ? nt : 1), sizeof *names);
    int64_t* order = NULL;
    skn_gguf_writer* w = NULL;
    skn_gguf_stream* s = NULL;
    skn_imatrix* im = NULL;
    skn_meta_list meta;
    memset(&meta, 0, sizeof meta);
    int reported = 1;
    if (refuse_split_input(g, o.in_path)) goto done;
    reported = 0;
    if (plan == NULL || names == NULL || skn_gguf_writer_create(&w) != SKN_OK) goto done;

    for (int64_t i = 0; i < nt; ++i) {
        plan[i].index = i;
        plan[i].in.struct_size = sizeof plan[i].in;
        if (skn_gguf_tensor_info(g, i, &plan[i].in) != SKN_OK) goto done;
        names[i] = plan[i].in.name;
    }
    if ((order = skn_quant_llama_order(plan, nt)) == NULL) goto done;
    skn_model_facts model;
    skn_model_facts_read(g, names, nt, &model);
    skn_quant_override_facts(&o, &model);
    reported = 1;
    if (o.imatrix_path != NULL) {
        if ((st = skn_imatrix_open(o.imatrix_path, &im)) != SKN_OK) {
            fprintf(stderr, "skn quantize: --imatrix %s: %s: %s\n", o.imatrix_path, skn_status_name(st), skn_last_error());
            goto done;
        }
        if (check_imatrix(im, o.imatrix_path) != 0) goto done;
        model.has_imatrix = 1;
    }
    skn_rule_state state;
    skn_rules_begin(&state, names, nt);

    int refused = 0;
    uint64_t in_total = 0, out_total = 0;
    for (int64_t k = 0; k < nt; ++k) {
        skn_quant_row* r = &plan[order[k]];
        const int c = skn_quant_choose(&o, &model, &state, r);
        if (c < 0) {
            reported = 0;
            goto done;
        }
        refused |= c;
        in_total += r->in.size;
        out_total += r->out_bytes;
    }
    if (refused) goto done;
    for (int64_t k = 0; k < nt && im != NULL; ++k)
        if (skn_quant_attach_importance(im, o.imatrix_path, &plan[order[k]]) != 0) goto done;
    if (!o.dry_run && check_importance(&o, plan, order, nt, im) != 0) goto done;

    uint32_t file_type = 0;
    const int has_file_type = skn_quant_file_type(&o, g, plan, order, nt, &file_type);
    if (skn_quant_metadata(&o, g, im, has_file_type, file_type, &meta) != 0) goto done;
    for (int64_t k = 0; k < nt; ++k) /* the writer records the I2_S layout of what it is given */
        if (skn_copy_records_i2s_layout(plan[k].kept != NULL ? plan[k].in.format : plan[k].out_format))
            skn_meta_list_remove(&meta, "skn.i2_s_layout");
    if (skn_meta_list_write(&meta, g, w, "quantize") != SKN_OK) goto done;
    for (int64_t k = 0; k < nt; ++k) {
        const skn_quant_row* r = &plan[order[k]];
        if (declare(w, r) != SKN_OK) {
            fprintf(stderr, "skn quantize: tensor \"%s\": %s\n", r->in.name, skn_last_error());
            goto done;
        }
    }
    reported = 0;
    uint64_t out_size = 0;
    if (skn_gguf_writer_size(w, &out_size) != SKN_OK) goto done;

    if (o.dry_run) {
        if (o.json)
            skn_quant_print_json(&o, &model, plan, order, nt, has_file_type, file_type, in_total, out_total, out_size,
                                 skn_now() - t0);
        else
            skn_quant_print_plan(&o, &model, plan, order, nt, has_file_type, file_type, in_total, out_total, out_size);
        rc = 0;
        goto done;
    }

    reported = 1;
    if ((st = skn_gguf_stream_begin_fd(w, skn_output_fd(out), &s)) != SKN_OK) {
        fprintf(stderr, "skn quantize: %s: %s: %s\n", o.out_path, skn_status_name(st), skn_last_error());
        goto done;
    }
    skn_gguf_writer_destroy(w); /* the stream holds what it needs */
    w = NULL;
    skn_progress progress;
    skn_progress_begin(&progress, nt, in_total);
    for (int64_t k = 0; k < nt; ++k) {
        skn_quant_row* r = &plan[order[k]];
        const skn_quant_job job = {g, r->index, &r->in, r->out_format, r->out_bytes, r->kept != NULL, r->repack,
                                   r->importance};
        const double t = skn_now();
        if (skn_quant_stream_tensor(&job, s, o.threads, &progress, k) != 0) {
            skn_progress_end(&progress);
            fprintf(stderr, "skn quantize: %s is not written\n", o.out_path);
            goto done;
        }
        r->seconds = skn_now() - t;
    }
    skn_progress_end(&progress);
    if ((st = skn_gguf_stream_finish(s)) != SKN_OK) {
        fprintf(stderr, "skn quantize: %s: %s: %s\n", o.out_path, skn_status_name(st), skn_last_error());
        goto done;
    }
    const int committed = skn_output_commit(out);
    out = NULL;
    if (committed != 0) goto done;
    if (o.json)
        skn_quant_print_json(&o, &model, plan, order, nt, has_file_type, file_type, in_total, out_total, out_size,
                             skn_now() - t0);
    else
        printf("%s: %" PRId64 " tensors, %" PRIu64 " bytes (tensors %" PRIu64 " -> %" PRIu64 " bytes) in %.1f s\n",
               o.out_path, nt, out_size, in_total, out_total, skn_now() - t0);
    rc = 0;
done:
    if (rc != 0 && !reported)
        fprintf(stderr, "skn quantize: %s\n", skn_last_error()[0] ? skn_last_error() : "out of memory");
    skn_output_abort(out); /* a failure leaves nothing behind */
    skn_gguf_stream_destroy(s);
    skn_gguf_writer_destroy(w);
    skn_meta_list_free(&meta);
    free(order);
    free(names);
    free(plan);
    skn_gguf_close(g);
    skn_imatrix_close(im);
    skn_quant_options_free(&o);
    return rc;
}
