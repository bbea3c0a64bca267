# SPDX-License-Identifier: MIT
# bash completion for skn(1), installed by the skn-tools package as
# /usr/share/bash-completion/completions/skn. The option lists are those of
# each command's --help (tests/tools/completion.py checks they agree).

_skn_options() {
    case "$1" in
        demo) echo "--write-model --help -h" ;;
        inspect) echo "--json --markdown --no-tensors --i2s-layout --help -h" ;;
        imatrix) echo "--json --help -h" ;;
        verify) echo "--hash --model-hash --json --i2s-layout --help -h" ;;
        dump) echo "--rows --cols --csv --raw --stats --bins --json --i2s-layout --help -h" ;;
        doctor) echo "--json --help -h" ;;
        tune) echo "--seconds --formats --output --dry-run --threads --help -h" ;;
        quantize) echo "--threads --imatrix --tensor-type --tensor-type-file --output-tensor-type
                        --token-embedding-type --leave-output-tensor --override-kv --pure --repack --canonical
                        --force-overwrite --dry-run --json --allow-requantize --i2s-layout --help -h" ;;
        edit) echo "--set --add --remove --rename --rewrite --dry-run --force-overwrite --i2s-layout --help -h" ;;
        split) echo "--split-max-tensors --split-max-size --no-tensor-first-split --dry-run --force-overwrite
                     --help -h" ;;
        merge) echo "--dry-run --force-overwrite --help -h" ;;
        bench) echo "--formats --shapes --n --threads --orders --isa --reps --precision --moe --include-reference
                     --full --json --order-table --help -h" ;;
        version) echo "--help -h" ;;
    esac
}

# llama-quantize's TYPE names (skn quantize --help) and the row-interleaved
# formats; any other format name works too.
_skn_quant_types="Q4_0 Q4_1 Q5_0 Q5_1 Q8_0 Q2_K Q2_K_S Q3_K Q3_K_S Q3_K_M Q3_K_L Q4_K Q4_K_S Q4_K_M Q5_K Q5_K_S
Q5_K_M Q6_K IQ4_NL IQ4_XS TQ1_0 TQ2_0 MXFP4_MOE Q1_0 Q2_0 IQ1_S IQ1_M IQ2_XXS IQ2_XS IQ2_S IQ2_M IQ3_XXS IQ3_XS
IQ3_S IQ3_M F16 BF16 F32 COPY Q4_0_R8 Q5_0_R4 Q8_0_R8 Q2_K_R4 Q3_K_R4 Q4_K_R4 Q5_K_R4 Q6_K_R4 IQ4_NL_R4
IQ4_XS_R8 BF16_R16 MXFP4_R8 IQ2_XXS_R4 IQ2_XS_R4 IQ2_S_R4 IQ3_XXS_R4 IQ3_S_R4"
# Tensor types for --tensor-type, --output-tensor-type, --token-embedding-type
# (every format skn.h declares but I2_S_G64, which GGUF stores as i2_s).
_skn_formats="q4_0 q4_1 q5_0 q5_1 q8_0 q8_1 q2_k q3_k q4_k q5_k q6_k q8_k iq4_nl iq4_xs iq2_xxs iq2_xs iq2_s
iq3_xxs iq3_s iq1_s iq1_m tq1_0 tq2_0 mxfp4 nvfp4 q1_0 q2_0 i2_s f16 bf16 f32 q4_0_r8 q5_0_r4 q8_0_r8 q2_k_r4
q3_k_r4 q4_k_r4 q5_k_r4 q6_k_r4 iq4_nl_r4 iq4_xs_r8 bf16_r16 mxfp4_r8 iq2_xxs_r4 iq2_xs_r4 iq2_s_r4
iq3_xxs_r4 iq3_s_r4"

_skn() {
    local cur prev cmd i
    COMPREPLY=()
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "demo inspect imatrix verify dump doctor tune quantize edit split merge bench version help
                                 --version -V --help -h" -- "$cur"))
        return
    fi
    cmd="${COMP_WORDS[1]}"
    case "$prev" in
        --i2s-layout) COMPREPLY=($(compgen -W "x86 arm64" -- "$cur")); return ;;
        --output-tensor-type | --token-embedding-type) COMPREPLY=($(compgen -W "$_skn_formats" -- "$cur")); return ;;
        --imatrix | --tensor-type-file | --json | --order-table | --output)
            if [ "$cmd" = bench ] || [ "$prev" != --json ]; then
                compopt -o filenames 2> /dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
                return
            fi ;;
        --threads | --split-max-tensors | --split-max-size | --rows | --cols | --bins | --tensor-type | --override-kv | \
        --set | --add | --remove | --rename | --formats | --shapes | --n | --orders | --isa | --reps | --precision | --moe | --seconds)
            return ;; # a value only the user knows
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$(_skn_options "$cmd")" -- "$cur"))
        return
    fi
    # quantize's TYPE after IN and OUT (or after IN alone); files otherwise.
    if [ "$cmd" = quantize ]; then
        local positional=0
        for ((i = 2; i < COMP_CWORD; i++)); do
            case "${COMP_WORDS[i]}" in
                --threads | --imatrix | --tensor-type | --tensor-type-file | --output-tensor-type | \
                --token-embedding-type | --override-kv | --i2s-layout) ((i++)) ;;
                -*) ;;
                *) ((positional++)) ;;
            esac
        done
        if [ "$positional" -ge 1 ]; then
            COMPREPLY=($(compgen -W "$_skn_quant_types" -- "$cur"))
            [ "$positional" -eq 1 ] || return
        fi
    fi
    compopt -o filenames 2> /dev/null
    COMPREPLY+=($(compgen -f -X '!*.gguf' -- "$cur") $(compgen -d -- "$cur"))
}
complete -F _skn skn
