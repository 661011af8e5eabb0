#!/usr/bin/env python3
"""Derive src/mpi/mpi_ftable.h (the Fortran bindings paratrace wraps) from
src/mpi/mpi_table.h (the one table of MPI C bindings).

Usage: scripts/gen-mpi-ftable.py src/mpi/mpi_table.h > src/mpi/mpi_ftable.h

A C binding gets a Fortran wrapper when every parameter has a mechanical
Fortran conversion; each row lists the parameters as (CODE, name, extra...)
in C order, where CODE says how the Fortran argument (always passed by
reference) becomes the C one (see the legend printed into the header).
The bindings in PASS below keep OpenMPI's own Fortran entry point, which
their PT_MPI_FP rows call (found with dlsym) and record as the C call;
those in REASONS get no wrapper; both lists are printed into the header
with their reasons, and a binding that has a parameter without a
conversion and is in neither stops the script (so a new C binding is
either converted or explained).
tests/cli/mpi_table.sh checks that the committed header is this script's
output.
"""
import re, sys

# C handle type -> (type, prefix of its PMPI_*_f2c/_c2f conversions)
HANDLES = {t: (t, t[4:]) for t in (
    'MPI_Comm', 'MPI_Group', 'MPI_Op', 'MPI_Win', 'MPI_File', 'MPI_Info',
    'MPI_Errhandler', 'MPI_Request', 'MPI_Message')}
HANDLES['MPI_Datatype'] = ('MPI_Datatype', 'Type')

# Bindings whose Fortran call OpenMPI's own Fortran entry point still makes
# (a wrapper cannot make the C call in its place): their PT_MPI_FP rows
# record the call as C records it, with the Fortran arguments converted
# for the record only, around the entry point found with dlsym.  By
# reason (printed into the header).
PASS = [
    ('attribute values: OpenMPI\'s entry points keep them as Fortran '
     'integers through its internal ompi_attr_*_fint / _aint, with no '
     'PMPI_ call that would do the same',
     ['Attr_get', 'Attr_put', 'Comm_get_attr', 'Comm_set_attr',
      'Type_get_attr', 'Type_set_attr', 'Win_get_attr', 'Win_set_attr']),
    ('Fortran procedures as callbacks (OpenMPI marks them Fortran and '
     'calls them with Fortran arguments)',
     ['Comm_create_errhandler', 'Comm_create_keyval', 'Errhandler_create',
      'File_create_errhandler', 'Grequest_start', 'Keyval_create',
      'Op_create', 'Register_datarep', 'Type_create_keyval',
      'Win_create_keyval',
      'Win_create_errhandler']),
    ('arrays of CHARACTER strings (argv, commands) and their Fortran-only '
     'sentinels', ['Comm_spawn', 'Comm_spawn_multiple']),
]
PASSED = {n: i for i, (_, ns) in enumerate(PASS) for n in ns}
# The entry point a pass-through row calls, where not its own: OpenMPI's
# ompi_errhandler_create_f is a jump through the PLT to
# ompi_comm_create_errhandler_f, which is this library's and would record
# a second call (MPI_ERRHANDLER_CREATE is the MPI-1 name of
# MPI_COMM_CREATE_ERRHANDLER).
REAL = {'Errhandler_create': 'comm_create_errhandler'}

# Bindings with no generated Fortran wrapper, by reason (printed into the
# header); a binding the rules below cannot convert and that is neither
# here nor in PASS stops the script.
REASONS = [
    ('by hand in wrappers.c (Fortran has no argc/argv)',
     ['Init', 'Init_thread']),
    ('C only, no Fortran binding: handle conversions (*_c2f, *_f2c) and '
     'the tool interface (MPI_T_*)', None),
]
EXCLUDE = {n: i for i, (_, ns) in enumerate(REASONS) if ns for n in ns}
def reason(name):
    if name in EXCLUDE: return EXCLUDE[name]
    if name.endswith(('_c2f', '_f2c')) or name.startswith('T_'):
        return len(REASONS) - 1
    return None

# A PT_MPI_FP row's parameters: the Fortran argument is passed on to
# OpenMPI's entry point untouched, and CODE says how the record sees it
# (as the C call's argument of that name and kind).  The kinds the record
# does not read (x, b) get X (XS: a CHARACTER array, with its hidden
# length); the rest convert as the C value they stand for.
def pcode(t, n, k, fname):
    """(CODE, extra...) for parameter n (C type t, record kind k) of the
    pass-through binding fname, or None."""
    t = ' '.join(t.split())
    b = t[6:] if t.startswith('const ') else t
    if b in ('char * *', 'char * * *'): return ('XS',)
    if k in 'xb' and not b in HANDLES: return ('X',)
    if b == 'int':
        if fname == 'Op_create' and n == 'commute': return ('L',)
        return ('I',)
    if b == 'int *':
        if n == 'array_of_errcodes': return ('PE',)
        return ('P',)
    if b in HANDLES: return ('H',) + HANDLES[b]
    if b.endswith(' *') and b[:-2] in HANDLES and not n.startswith('array_'):
        return ('HR',) + HANDLES[b[:-2]]
    if t == 'const char *': return ('STR',)
    return None

# CHARACTER(*) results (STRO): the C buffer, of the size OpenMPI's own
# entry point gives it, and when the result is copied back (after
# success; MPI_Info_get: only when the key was found).
STRO = {
    ('Get_processor_name', 'name'): ('MPI_MAX_PROCESSOR_NAME', '1'),
    ('Get_library_version', 'version'):
        ('MPI_MAX_LIBRARY_VERSION_STRING', '1'),
    ('Error_string', 'string'): ('MPI_MAX_ERROR_STRING + 1', '1'),
    ('Comm_get_name', 'comm_name'): ('MPI_MAX_OBJECT_NAME', '1'),
    ('Type_get_name', 'type_name'): ('MPI_MAX_OBJECT_NAME', '1'),
    ('Win_get_name', 'win_name'): ('MPI_MAX_OBJECT_NAME', '1'),
    ('Info_get', 'value'): ('MPI_MAX_INFO_VAL + 1', '*flag'),
    ('Info_get_nthkey', 'key'): ('MPI_MAX_INFO_KEY + 1', '1'),
    ('File_get_view', 'datarep'): ('MPI_MAX_DATAREP_STRING', '1'),
    ('Open_port', 'port_name'): ('MPI_MAX_PORT_NAME', '1'),
    ('Lookup_name', 'port_name'): ('MPI_MAX_PORT_NAME', '1'),
}

# Entry points of their own, (symbol, alias, {parameter: code}): the
# mpi_f08 MPI_Buffer_detach is OpenMPI's ompi_buffer_detach_f08 (and
# pompi_), which returns the address into the TYPE(C_PTR) argument.
OWN = {'Buffer_detach': ('ompi_buffer_detach_f08', 'pompi_buffer_detach_f08',
                         {'buffer': ('VDA',)})}

# The MPI-1 calls removed in MPI-3 (OpenMPI 4.1 still exports them): their
# Fortran address arguments are default INTEGERs where C has MPI_Aint.
MPI1_AINT = {'Address', 'Type_extent', 'Type_lb', 'Type_ub',
             'Type_hvector', 'Type_hindexed', 'Type_struct'}

# Bindings with an address result (baseptr): Fortran passes the variable
# that receives it (INTEGER(KIND=MPI_ADDRESS_KIND) or TYPE(C_PTR)) by
# reference, as C's void *; OpenMPI also has *_cptr entry points for them.
CPTR = {'Alloc_mem', 'Win_allocate', 'Win_allocate_shared', 'Win_shared_query'}

# Datatype arrays with one entry per process of the communicator (the
# remote group of an intercommunicator) or per neighbour of its topology:
# (how many, the send or receive buffer; MPI_IN_PLACE: no array).
PER_PROCESS = {'Alltoallw': 'size', 'Ialltoallw': 'size',
               'Neighbor_alltoallw': 'nbr', 'Ineighbor_alltoallw': 'nbr'}

def code(t, n, cname, fname):
    """(CODE, extra...) for a C parameter type t named n of binding fname,
    or None."""
    t = ' '.join(t.split())
    const = t.startswith('const ')
    b = t[6:] if const else t
    mpi1 = fname in MPI1_AINT
    if fname == 'Buffer_detach' and n == 'buffer': return ('VD',)
    if fname == 'Address' and n == 'location': return ('VR',)
    if 'void *' in t: return ('V',)
    if b == 'int': return ('I',)
    if b == 'int *':
        if n.endswith('weights'): return ('W',)  # or MPI_UNWEIGHTED...
        if n == 'index' and 'array_of_requests' in cname:
            return ('IX',)              # Waitany/Testany: 1-based out
        if n == 'array_of_indices': return ('IXA', 'outcount')
        return ('P',)
    if b == 'int (*ranges)[3]': return ('PR',)
    if mpi1 and b == 'MPI_Aint': return ('AI', 'MPI_Aint')
    if mpi1 and b == 'MPI_Aint *':
        if n.startswith('array_of_'): return ('AIA', 'MPI_Aint', 'count')
        return ('AO', 'MPI_Aint')
    if b == 'MPI_Aint': return ('A', 'MPI_Aint')
    if b == 'MPI_Offset': return ('A', 'MPI_Offset')
    if b == 'MPI_Count': return ('A', 'MPI_Count')
    if b in ('MPI_Aint *', 'MPI_Offset *', 'MPI_Count *'):
        return ('AP', b[:-2])
    if b in HANDLES: return ('H',) + HANDLES[b]
    if b.endswith(' *') and b[:-2] in HANDLES:
        h = HANDLES[b[:-2]]
        if fname in PER_PROCESS and n in ('sendtypes', 'recvtypes'):
            how = PER_PROCESS[fname]
            if how == 'nbr': how = 'out' if n == 'sendtypes' else 'in'
            return ('HAC',) + h + ('comm', how, n[:4] + 'buf')
        if n.startswith('array_of_') or n.endswith('types'):
            cnt = [p for p in cname
                   if p in ('count', 'incount', 'max_datatypes')]
            if not cnt: return None
            # (MPI_Type_struct's types: input, though not const in C)
            return (('HAI' if const or mpi1 else 'HA'),) + h + (cnt[0],)
        return ('HO',) + h
    if b == 'MPI_Status *':
        if const: return ('STI',)
        if fname.startswith('Status_set_'): return ('STIO',)
        if fname == 'Request_get_status': return ('STG', 'flag')
        if n == 'status': return ('ST',)
        if n == 'array_of_statuses':
            if 'outcount' in cname: return ('STA', 'incount', '*outcount')
            if 'count' in cname: return ('STA', 'count', 'count')
        return None
    if t == 'const char *': return ('STR',)
    if t == 'char *' and (fname, n) in STRO:
        return ('STRO',) + STRO[(fname, n)]
    return None

def wrap(names):
    lines, cur = [], ' *'
    for n in names:
        if len(cur) + len(n) + 1 > 76:
            lines.append(cur); cur = ' *'
        cur += ' ' + n
    lines.append(cur)
    return '\n'.join(lines)

def ctype(d, n):
    """The C type of parameter declaration d named n, or None."""
    if d.endswith(n): return d[:len(d) - len(n)].strip()
    if d.replace(' ', '') == 'int(*%s)[3]' % n: return 'int (*ranges)[3]'
    return None

rows = []
skipped = [[] for _ in REASONS]
passed = [[] for _ in PASS]
for line in open(sys.argv[1]):
    m = re.match(r'PT_MPI_FN\((\w+), ([^,]+), \((.*?)\), \((.*?)\), "(\w*)"',
                 line)
    if not m: continue
    name, ret, params, args, kinds = m.groups()
    why = reason(name)
    if why is not None:
        skipped[why].append(name); continue
    if name in PASSED:
        passed[PASSED[name]].append(name)
        names = [a.strip() for a in args.split(',')]
        out = []
        for d, n, k in zip([p.strip() for p in params.split(',')], names,
                           kinds):
            t = ctype(d, n)
            c = pcode(t, n, k, name) if t is not None and ret == 'int' \
                else None
            if c is None:
                sys.exit('gen-mpi-ftable.py: MPI_%s: no conversion of "%s" '
                         'for the record' % (name, d))
            out.append('(%s)' % ', '.join((c[0], n) + c[1:]))
        rows.append('PT_MPI_FP(%s, %s, %s, %s, (%s), "%s"%s)' % (
            name, name.lower(), name.upper(),
            REAL.get(name, name.lower()), ', '.join(names), kinds,
            ''.join(', ' + o for o in out)))
        continue
    if ret == 'double' and params.strip() == 'void':
        rows.append('PT_MPI_FD(%s, %s, %s)' % (name, name.lower(),
                                               name.upper()))
        continue
    names = [a.strip() for a in args.split(',')] if args.strip() else []
    decls = [] if params.strip() == 'void' else [p.strip() for p in params.split(',')]
    out = []
    for d, n in zip(decls, names):
        t = ctype(d, n)
        c = code(t, n, names, name) if t is not None and ret == 'int' \
            else None
        if c is None:
            sys.exit('gen-mpi-ftable.py: MPI_%s: no Fortran conversion for '
                     '"%s" and no reason to leave it out' % (name, d))
        out.append('(%s)' % ', '.join((c[0], n) + c[1:]))
    for m in ('PT_MPI_F', 'PT_MPI_FC') if name in CPTR else ('PT_MPI_F',):
        rows.append('%s(%s, %s, %s, (%s)%s)' % (
            m, name, name.lower(), name.upper(), ', '.join(names),
            ''.join(', ' + o for o in out)))
    if name in OWN:
        sym, alias, codes = OWN[name]
        own = [o if n not in codes else '(%s)' % ', '.join(
                   (codes[n][0], n) + codes[n][1:])
               for o, n in zip(out, names)]
        rows.append('PT_MPI_FS(%s, %s, %s, (%s)%s)' % (
            name, sym, alias, ', '.join(names),
            ''.join(', ' + o for o in own)))

nskip = sum(len(k) for k in skipped)
npass = sum(len(k) for k in passed)
print('''/* Generated by scripts/gen-mpi-ftable.py from mpi_table.h: the MPI
 * bindings paratrace also wraps for Fortran (mpif.h, the mpi module, and
 * the mpi_f08 module through OpenMPI's ompi_*_f entry points).  Row:
 * PT_MPI_F(Name, lower, UPPER, (C call args), (CODE, param, extra...)...),
 * parameters in C order (PT_MPI_FC, same form: OpenMPI's *_cptr entry
 * points of the bindings with an address result, aliases of the row
 * before; PT_MPI_FD(Name, lower, UPPER): a DOUBLE PRECISION function of
 * no arguments; PT_MPI_FS(Name, symbol, alias, ...): an entry point of
 * its own); each Fortran argument is a reference and becomes:
 *   V    buffer (MPI_BOTTOM/MPI_IN_PLACE mapped)   I  INTEGER value
 *   P    INTEGER array or result (passed as is)    A  integer of kind T
 *   AP   reference to an integer of kind T         H  handle T (PMPI_X_f2c)
 *   HO   handle T in/out (f2c before, c2f after)   STR CHARACTER(*) in
 *   HA/HAI handle array of `count` (in/out, in)    ST status out
 *   STA  status array (size, how many to convert)  STI status in
 *   IX/IXA index / indices (0-based C -> 1-based Fortran)
 *   W    INTEGER weights (MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY mapped)
 *   HAC  handle array, one per process of `comm` (size) or per neighbour
 *        of its topology (in, out); none when `buf` is MPI_IN_PLACE
 *   STRO CHARACTER(*) result: a C buffer of `size` bytes, copied back
 *        blank-padded (or truncated) after success when `when` holds
 *   PR   INTEGER ranges(3, n), the C int (*)[3] as is
 *   STIO status in and out; MPI_STATUS_IGNORE: no call, success
 *   STG  status out; MPI_STATUS_IGNORE: no call, `flag` false, success
 *   VD   MPI_Buffer_detach's buffer (Fortran gets no address back)
 *   VDA  MPI_Buffer_detach's buffer (mpi_f08: a TYPE(C_PTR), set)
 *   VR   buffer passed as is (MPI_Address: no MPI_BOTTOM mapping)
 *   AI   INTEGER value as T                         AO INTEGER result of a T
 *   AIA  INTEGER array of `count` as T array    (the MPI-1 calls' addresses)
 * PT_MPI_FP(Name, lower, UPPER, real, (C call args), "kinds", (CODE,
 * param, extra...)...): a pass-through row.  OpenMPI's own entry point
 * (ompi_<real>_f, found once with dlsym(RTLD_NEXT), else in OpenMPI's
 * Fortran library opened then; real is lower but for Errhandler_create,
 * whose entry point jumps to Comm_create_errhandler's) makes the call
 * with the Fortran arguments untouched, and the call is
 * recorded as the C call of that name (kinds: its row of mpi_table.h),
 * each argument converted for the record only:
 *   H    handle T (PMPI_X_f2c)                      I  INTEGER value
 *   HR   handle T result (PMPI_X_f2c after success) L  LOGICAL value
 *   P    INTEGER or LOGICAL result or array, as is  STR CHARACTER(*)
 *   PE   INTEGER errcodes (MPI_ERRCODES_IGNORE mapped)
 *   X    not read by the record (kind x or b: a procedure, an attribute
 *        value, extra_state...): the reference as is
 *   XS   CHARACTER array (and its hidden length), not read by the record
 * %d bindings traced around OpenMPI's own Fortran entry point (PT_MPI_FP),
 * which a wrapper cannot replace with a C call:''' % npass)
for (why, _), names in zip(PASS, passed):
    if not names: continue
    print(wrap(['-'] + why.split() + ['(%d):' % len(names)]))
    print(wrap(names))
print(' * %d bindings with no Fortran wrapper generated:' % nskip)
for (why, _), names in zip(REASONS, skipped):
    if not names: continue
    print(wrap(['-'] + why.split() + ['(%d):' % len(names)]))
    print(wrap(names))
print(' * No include guard: an X-macro table. */')
for r in rows: print(r)
