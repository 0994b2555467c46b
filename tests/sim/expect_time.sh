# Sourced by the SMPI scripts: expect NAME GOT EXPECTED passes when a
# simulated time is within 1e-4 (relative) of the time computed by hand
# (SMPI's 16 ns of bookkeeping per message stay inside it).
expect() {
  python3 - "$@" <<'PY'
import sys
name, got, expected = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
ok = abs(got - expected) <= 1e-4 * expected
print(f"{name}: simulated {got:.9e} s, by hand {expected:.9e} s {'ok' if ok else 'WRONG'}")
sys.exit(0 if ok else 1)
PY
}
