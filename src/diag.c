/* The status codes: what each says and how grave it is, in one table
 * (docs/architecture.md, "Errors", says which situation gives which). */
#include "diag.h"
#include <string.h>

static const struct status_info {
    const char *text;
    kf3ds_severity severity;
} statuses[] = {
    [KF3DS_OK] = { "ok", KF3DS_WARNING },
    [KF3DS_ERR_ARGUMENT] = { "invalid argument", KF3DS_ERROR },
    [KF3DS_ERR_IO] = { "i/o error", KF3DS_ERROR },
    [KF3DS_ERR_NOMEM] = { "out of memory", KF3DS_ERROR },
    [KF3DS_ERR_NOT_3DS] = { "not a 3DS file", KF3DS_ERROR },
    [KF3DS_ERR_CHUNK] = { "bad chunk header", KF3DS_ERROR },
    [KF3DS_ERR_TRUNCATED] = { "truncated data", KF3DS_ERROR },
    [KF3DS_ERR_LIMIT] = { "limit exceeded", KF3DS_ERROR },
    [KF3DS_WARN_OVERRUN] = { "chunk overrun", KF3DS_WARNING },
    [KF3DS_WARN_UNSORTED] = { "unsorted keys", KF3DS_WARNING },
    [KF3DS_WARN_PARENT] = { "bad parent", KF3DS_WARNING },
    [KF3DS_WARN_REFERENCE] = { "unresolved name", KF3DS_WARNING },
    [KF3DS_WARN_VALUE] = { "odd value", KF3DS_WARNING },
    [KF3DS_WARN_TRAILING] = { "stray bytes", KF3DS_WARNING },
};

static const struct status_info *status_info(kf3ds_status code)
{
    size_t i = (size_t)code;
    return i < sizeof statuses / sizeof statuses[0] && statuses[i].text ? &statuses[i] : NULL;
}

const char *kf3ds_status_string(kf3ds_status code)
{
    const struct status_info *info = status_info(code);
    return info ? info->text : "unknown";
}

kf3ds_severity kf3ds_status_severity(kf3ds_status code)
{
    const struct status_info *info = status_info(code);
    return info ? info->severity : KF3DS_ERROR;
}

void kf3ds__diag_setv(kf3ds_diag *d, kf3ds_status code, uint32_t offset, uint16_t chunk_id,
                      const char *fmt, va_list ap)
{
    const char *name = chunk_id ? kf3ds_chunk_name(chunk_id) : "";
    d->code = code;
    d->severity = kf3ds_status_severity(code);
    d->offset = offset;
    d->chunk_id = chunk_id;
    d->chunk_name = name ? name : "?";
    kf3ds__format(d->message, sizeof d->message, fmt, ap);
}

void kf3ds__diag_set(kf3ds_diag *d, kf3ds_status code, const char *fmt, ...)
{
    va_list ap;
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    va_start(ap, fmt);
    kf3ds__diag_setv(d, code, 0, 0, fmt, ap);
    va_end(ap);
}
