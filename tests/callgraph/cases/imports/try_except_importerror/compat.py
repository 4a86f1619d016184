try:
    from ujson import dumps
except ImportError:
    from fallback_json import dumps
