"""Human review of what was learned: why a claim is remembered (``why``), applying proposals to
instruction files (``adopt``, in the marked ``block``), the other decisions (``decisions``), and the
backup/rollback transaction every change goes through (``backups``).

Kept free of imports so that importing one module loads only what that module needs.
"""
