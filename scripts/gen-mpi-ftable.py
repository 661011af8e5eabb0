#!/usr/bin/env python3
"""Derive src/mpi/mpi_ftable.h (the Fortran bindings paratrace wraps) from
src/mpi/mpi_table.h (the one table of MPI C bindings).

Usage: scripts/gen-mpi-ftable.py src/mpi/mpi_table.h > src/mpi/mpi_ftable.h

A C binding gets a Fortran wrapper when every parameter has a mechanical
Fortran conversion; each row lists the parameters as (CODE, name, extra...)
in C order, where CODE says how the Fortran argument (always passed by
reference) becomes the C one (see the legend printed into the header).
Bindings left out keep OpenMPI's own Fortran entry point (untraced); the
reasons are the EXCLUDE list and the unsupported parameter types below.
tests/cli/mpi_table.sh checks that the committed header is this script's
output.
"""
import re, sys

# C handle type -> (type, prefix of its PMPI_*_f2c/_c2f conversions)
HANDLES = {t: (t, t[4:]) for t in (
    'MPI_Comm', 'MPI_Group', 'MPI_Op', 'MPI_Win', 'MPI_File', 'MPI_Info',
    'MPI_Errhandler', 'MPI_Request', 'MPI_Message')}
HANDLES['MPI_Datatype'] = ('MPI_Datatype', 'Type')

# Bindings whose Fortran form is not the C one with arguments by reference.
EXCLUDE = {
    'Init', 'Init_thread',          # no argc/argv in Fortran: wrappers.c
    'Pcontrol',                     # variadic in C; by hand in wrappers.c
    'Buffer_detach',                # Fortran gets no address back
    'Status_set_cancelled', 'Status_set_elements', 'Status_set_elements_x',
    'Request_get_status',           # status in/out or read by the caller
    'Wtime', 'Wtick',               # not int-returning; untimed
    'Attr_get', 'Attr_put', 'Comm_get_attr', 'Comm_set_attr',
    'Type_get_attr', 'Type_set_attr', 'Win_get_attr', 'Win_set_attr',
    # attribute values are INTEGER(KIND=MPI_ADDRESS_KIND) in Fortran
    'Address', 'Type_extent', 'Type_lb', 'Type_ub', 'Type_hvector',
    'Type_hindexed', 'Type_struct', # MPI-1: INTEGER where C has MPI_Aint
}

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
    if 'void *' in t: return ('V',)
    if b == 'int': return ('I',)
    if b == 'int *':
        if n.endswith('weights'): return ('W',)  # or MPI_UNWEIGHTED...
        if n == 'index' and 'array_of_requests' in cname:
            return ('IX',)              # Waitany/Testany: 1-based out
        if n == 'array_of_indices': return ('IXA', 'outcount')
        return ('P',)
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
            cnt = [p for p in cname if p in ('count', 'incount')]
            if not cnt: return None
            return (('HAI' if const else 'HA'),) + h + (cnt[0],)
        return ('HO',) + h
    if b == 'MPI_Status *':
        if const: return ('STI',)
        if n == 'status': return ('ST',)
        if n == 'array_of_statuses':
            if 'outcount' in cname: return ('STA', 'incount', '*outcount')
            if 'count' in cname: return ('STA', 'count', 'count')
        return None
    if t == 'const char *': return ('STR',)
    return None

def wrap(names):
    lines, cur = [], ' *'
    for n in names:
        if len(cur) + len(n) + 1 > 76:
            lines.append(cur); cur = ' *'
        cur += ' ' + n
    lines.append(cur)
    return '\n'.join(lines)

rows = []
skipped = []
for line in open(sys.argv[1]):
    m = re.match(r'PT_MPI_FN\((\w+), ([^,]+), \((.*?)\), \((.*?)\), "', line)
    if not m: continue
    name, ret, params, args = m.groups()
    if name in EXCLUDE or ret != 'int' or name.endswith(('_c2f', '_f2c')) \
            or name.startswith('T_'):
        skipped.append(name); continue
    names = [a.strip() for a in args.split(',')] if args.strip() else []
    decls = [] if params.strip() == 'void' else [p.strip() for p in params.split(',')]
    out = []
    for d, n in zip(decls, names):
        t = d[:len(d) - len(n)].strip() if d.endswith(n) else None
        c = code(t, n, names, name) if t is not None else None
        if c is None: break
        out.append('(%s)' % ', '.join((c[0], n) + c[1:]))
    else:
        for m in ('PT_MPI_F', 'PT_MPI_FC') if name in CPTR else ('PT_MPI_F',):
            rows.append('%s(%s, %s, %s, (%s)%s)' % (
                m, name, name.lower(), name.upper(), ', '.join(names),
                ''.join(', ' + o for o in out)))
        continue
    skipped.append(name)

print('''/* Generated by scripts/gen-mpi-ftable.py from mpi_table.h: the MPI
 * bindings paratrace also wraps for Fortran (mpif.h, the mpi module, and
 * the mpi_f08 module through OpenMPI's ompi_*_f entry points).  Row:
 * PT_MPI_F(Name, lower, UPPER, (C call args), (CODE, param, extra...)...),
 * parameters in C order (PT_MPI_FC, same form: OpenMPI's *_cptr entry
 * points of the bindings with an address result, aliases of the row
 * before); each Fortran argument is a reference and becomes:
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
 * %d bindings left to OpenMPI's Fortran entry points (untraced):
%s.
 * No include guard: an X-macro table. */''' % (len(skipped), wrap(skipped)))
for r in rows: print(r)
