#!/bin/sh
# tests/retro/check_objects.sh "NAME|PREFIX|PROGRAM|QEMU" ...
#
# The object-code checks of `make retro` (mk/retro.mk) for each retro build of
# kfb-eval: neither the reader alone (PROGRAM.reader.o) nor the whole linked
# program (the reader, kfb-eval's printing and vertex transforms, the start-up
# code) contains
#   - an FPU instruction or an FPU register (objdump -d: 68881 f* mnemonics and
#     %fp0-%fp7/%fpcr/%fpsr; ARM VFP v* / FPA mnemonics, s0-s31, d0-d31; MIPS
#     coprocessor-1 instructions and $f registers),
#   - a soft-float helper (__addsf3, __mulsf3, __floatsisf, __aeabi_fadd,
#     __aeabi_d2iz, ...), defined or called;
# the reader needs no symbol from outside (nm -u empty; on the 68000 only
# __mulsi3, its 32-bit multiply, which runtime.c supplies). Prints the
# reader's code size (text) on each target. Exit status 1 on any finding.
set -u
fail=0
softfloat='^_*(__(add|sub|mul|div|neg|cmp|eq|ne|lt|le|gt|ge|unord|float|floatun|fix|fixuns|extend|trunc|pow|powi)[a-z]*[sdtx]f[0-9]?|__aeabi_([fd](add|sub|mul|div|rsub|cmp[a-z]*|neg)|[fd]2[a-z0-9]+|[iul]+2[fd]|[fd]cmp[a-z]+))$'

for run in "$@"; do
  name=${run%%|*}; rest=${run#*|}
  prefix=${rest%%|*}; rest=${rest#*|}
  prog=${rest%%|*}
  case $name in
    68000*) fpu_insn='^f[a-z]'; fpu_reg='%fp[0-7]|%fpcr|%fpsr|%fpiar' ;;
    arm*)   fpu_insn='^(v[a-z]|f(add|sub|mul|div|cpy|abs|neg|sqrt|cmp|ld|st|mr|mx|si|to|ui|cvt)|(adf|suf|rsf|muf|dvf|rdf|mvf|mnf|abs|rnd|sqt|flt|fix|wfs|rfs|wfc|rfc|cmf|cnf|ldf|stf|lfm|sfm)[a-z]*$)'
            fpu_reg='(^|[^a-z0-9_])[sd][0-9]+([^0-9]|$)' ;;
    r3000*) fpu_insn='(c1|c1t|c1f|c1l)$|^(cvt|c)\.|\.(s|d|w|l|ps)$'; fpu_reg='\$f[0-9]' ;;
    *) echo "check_objects: unknown target $name" >&2; exit 2 ;;
  esac
  for obj in "$prog.reader.o" "$prog"; do
    what="$name: $(basename "$obj")"
    # mnemonic and operands of every instruction
    insns=$("${prefix}objdump" -d "$obj" | awk -F'\t' 'NF >= 3 { print $3 " " $4 }')
    bad=$(printf '%s\n' "$insns" | awk -v i="$fpu_insn" -v r="$fpu_reg" \
      '{ m = $1; ops = $0; sub(/^[^ \t]+[ \t]*/, "", ops); sub(/[ \t]*[;#<].*$/, "", ops)
         if (m ~ /^b/) ops = ""   # branch operands are addresses: d38 is no VFP register
         if (m ~ i || ops ~ r) { print; n++ } } END { exit n > 0 }' | head -5)
    if [ -n "$bad" ]; then
      echo "FAIL $what has floating-point instructions:"; printf '%s\n' "$bad" | sed 's/^/    /'
      fail=1
    fi
    helpers=$("${prefix}nm" "$obj" | awk '{ print $NF }' | grep -E "$softfloat" | tr '\n' ' ')
    if [ -n "$helpers" ]; then
      echo "FAIL $what names soft-float helpers: $helpers"; fail=1
    fi
  done
  # The 68000 multiplies 32 bits only through libgcc's integer helper.
  undef=$("${prefix}nm" -u "$prog.reader.o" | awk '{ print $NF }' | grep -v '^__mulsi3$' | tr '\n' ' ')
  if [ -n "$undef" ]; then
    echo "FAIL $name: the reader needs symbols from outside: $undef"; fail=1
  fi
  text=$("${prefix}size" "$prog.reader.o" | awk 'NR == 2 { print $1 }')
  ptext=$("${prefix}size" "$prog" | awk 'NR == 2 { print $1 }')
  [ $fail = 0 ] && echo "ok   $name: no FPU instruction or register, no soft-float helper in the reader" \
    "or in kfb-eval; reader $text bytes of code, kfb-eval $ptext bytes in all"
done
exit $fail
