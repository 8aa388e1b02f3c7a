"""The ``lossylink`` commands other than the light ones, one module per command (``demo`` shares
``reproduce``'s); :data:`lossylink.cli.LAZY_COMMANDS` names them, and the group imports one only
when it runs it."""
