"""HTTP plumbing shared by every route: errors as ``{"error": {code, message}}``, security
headers, the origin and CSRF checks, and who is asking."""

from __future__ import annotations

import logging
from typing import Annotated, Any, get_args

from fastapi import Depends, FastAPI, Path, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.responses import Response

from thirteen.engine.errors import RuleError
from thirteen.server.db.session import Database, database_busy
from thirteen.server.money.accounts import Accounts, Me
from thirteen.server.money.throttle import RateLimitError, Throttle
from thirteen.server.settings import Settings

log = logging.getLogger("thirteen.server")

SESSION_COOKIE = "thirteen_session"
CSRF_HEADER = "x-csrf-token"
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}

STATUS_BY_CODE = {
    "not_logged_in": 401,
    "bad_login": 401,
    "forbidden": 403,
    "bad_origin": 403,
    "bad_csrf": 403,
    "not_found": 404,
    "no_account": 404,
    "no_table": 404,
    "no_open_table": 404,
    "name_taken": 409,
    "insufficient_chips": 409,
    "key_reused": 409,
    "seat_taken": 409,
    "rate_limited": 429,
    "busy": 503,
    "review_queue_full": 429,
    "bad_review": 400,
    "bad_cards": 422,
    "not_practice": 403,
    "not_seated": 403,
    "not_your_turn": 409,
    "no_hint": 409,
    "moving": 409,
    "table_broken": 409,
    "no_tournament": 404,
    "tournament_full": 409,
    "already_registered": 409,
    "not_registered": 409,
    "not_registering": 409,
    "tournament_table": 409,
    "no_event": 404,
    "no_team": 404,
    "no_player": 404,
    "no_deal": 404,
    "team_full": 409,
    "team_name_taken": 409,
    "teams_not_ready": 409,
    "not_yet": 409,
    "bad_confirmation": 409,
    "private_table": 403,
    "no_hints": 403,
    "bad_practice": 400,
    "too_many_runs": 409,
    "not_director": 403,
}

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}


class ErrorDetail(BaseModel):
    code: str = Field(description="What went wrong, for programs: e.g. not_logged_in, bad_name.")
    message: str = Field(description="What went wrong, in a sentence for a person.")


class ErrorOut(BaseModel):
    """Every refusal, whatever its status: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


ERROR_MEANINGS = {
    400: "Refused: the request is well formed but cannot be done (the message says why).",
    401: "Not logged in, or the name and password do not match.",
    403: "Refused: a request from another site, without the CSRF token, or not allowed to you.",
    404: "There is no such thing.",
    409: "It conflicts with what is there (a name taken, chips short, not your turn).",
    422: "The request does not have the documented shape.",
    429: "Too many attempts or requests; the message says how long to wait (Retry-After).",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route that can answer with these error statuses."""
    return {s: {"model": ErrorOut, "description": ERROR_MEANINGS[s]} for s in statuses}


def _numeric(annotation: Any) -> bool:
    """Whether a field holds a number (``int``, ``float``, or one of them or ``None``)."""
    args = get_args(annotation) or (annotation,)
    return any(a in (int, float) for a in args) and not any(a in (str, bool) for a in args)


class Body(BaseModel):
    """A request body: no field the schema does not list, and a number is a JSON number —
    not ``true`` (which Python counts as 1), not ``"2"``; an integral ``2.0`` is an integer
    in the schema, and here."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _json_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        name = info.field_name
        numeric = name is not None and _numeric(cls.model_fields[name].annotation)
        if numeric and isinstance(value, bool | str):
            raise ValueError("must be a number, not true, false or text")
        return value


class ApiError(RuleError):
    """A refusal from the HTTP layer (not logged in, wrong origin, no such thing)."""


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def error_response(code: str, message: str, status: int | None = None) -> JSONResponse:
    return JSONResponse(
        error_body(code, message), status_code=status or STATUS_BY_CODE.get(code, 400)
    )


def _validation_sentence(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "The request is not valid."
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path"))
    kind = first.get("type", "")
    if kind == "missing":
        return f"The request needs {where!r}." if where else "The request needs a JSON body."
    if kind == "extra_forbidden":
        return f"The request has a field {where!r} that is not known here."
    if kind in ("json_invalid", "model_attributes_type", "dict_type"):
        return "The request body must be a JSON object."
    message = str(first.get("msg", "is not valid")).rstrip(".")
    if kind == "value_error":  # a validator's own sentence, without pydantic's prefix
        message = message.removeprefix("Value error, ")
    return f"{where}: {message}." if where else f"{message}."


async def _rule_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RuleError)
    response = error_response(exc.code, exc.message)
    if isinstance(exc, RateLimitError):
        response.headers["retry-after"] = str(exc.retry_after)
    return response


async def _validation_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return error_response("bad_request", _validation_sentence(exc), 422)


async def _http_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    sentences = {
        404: ("not_found", "There is nothing at this address."),
        405: ("method_not_allowed", "This address does not take that method."),
    }
    status = exc.status_code
    if status == 400:  # FastAPI's own, for a body it cannot read: a malformed request
        status, code, message = 422, "bad_request", "The request body must be JSON in UTF-8."
    else:
        code, message = sentences.get(status, ("http_error", str(exc.detail)))
    response = error_response(code, message, status)
    if exc.headers:
        response.headers.update(exc.headers)
    return response


BUSY_SENTENCE = "The room is too busy to answer this now; nothing was changed. Please try again."
BUSY_RETRY_SECONDS = 1


async def _unexpected(_request: Request, exc: Exception) -> Response:
    if database_busy(exc):  # a moment's congestion, not a fault: the client may simply retry
        log.warning("database busy", extra={"error": type(exc).__name__})
        response = error_response("busy", BUSY_SENTENCE)
        response.headers["retry-after"] = str(BUSY_RETRY_SECONDS)
        return response
    log.exception("unexpected error", exc_info=exc)
    return error_response(
        "internal", "Something went wrong on our side; nothing was changed. Please try again.", 500
    )


class SecurityHeaders(BaseHTTPMiddleware):
    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        response.headers.setdefault("cache-control", "no-store")
        return response


def client_address(request: Request) -> str:
    """The client's address (as the proxy in front says, when uvicorn trusts it)."""
    return request.client.host if request.client else "unknown"


class HttpLimit(BaseHTTPMiddleware):
    """``limit_http``: API requests per session, or per address without one — a session the
    room knows: a cookie it never issued (or that ended) counts as none, so made-up cookies
    get no budgets of their own. The session found is the request's (:func:`optional_user`
    does not look it up again)."""

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        if request.url.path.startswith("/api/"):
            throttle: Throttle = request.app.state.throttle
            me = await optional_user(request) if throttle.enabled else None
            key = f"session:{me.session}" if me else f"address:{client_address(request)}"
            try:
                await throttle.hit("http", key)
            except RateLimitError as e:
                return await _rule_error(request, e)
        return await call_next(request)


def install(app: FastAPI) -> None:
    """Error handlers, rate limits and security headers for ``app``."""
    app.add_exception_handler(RuleError, _rule_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    # the database's own errors are answered here, not re-raised to the server's log as
    # Exception's handler would (a busy database: 503 with Retry-After)
    app.add_exception_handler(SQLAlchemyError, _unexpected)
    app.add_exception_handler(Exception, _unexpected)
    app.add_middleware(HttpLimit)
    app.add_middleware(SecurityHeaders)


# ----------------------------------------------------------------------------- dependencies
def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def db_of(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def check_origin(request: Request) -> None:
    """A browser's cross-site request is refused: its Origin must be this room's."""
    origin = request.headers.get("origin")
    if origin is None or request.method not in UNSAFE_METHODS:
        return
    settings = settings_of(request)
    allowed = settings.public_origin or f"{request.url.scheme}://{request.headers.get('host', '')}"
    if origin != allowed:
        raise ApiError("bad_origin", "This request came from another site and was refused.")


async def optional_user(request: Request) -> Me | None:
    """The session behind the request's cookie, if the room knows it (looked up once a
    request)."""
    state = request.scope.setdefault("state", {})
    if "me" not in state:
        state["me"] = await accounts_of(request).who(request.cookies.get(SESSION_COOKIE))
    me: Me | None = state["me"]
    return me


async def current_user(request: Request) -> Me:
    """The logged-in account; state-changing requests must also carry its CSRF token."""
    check_origin(request)
    me = await optional_user(request)
    if me is None:
        raise ApiError("not_logged_in", "Log in first.")
    if request.method in UNSAFE_METHODS and request.headers.get(CSRF_HEADER) != me.csrf_token:
        raise ApiError("bad_csrf", "This request lacks the page's security token; reload the page.")
    return me


async def current_admin(me: Annotated[Me, Depends(current_user)]) -> Me:
    if not me.is_admin:
        raise ApiError("forbidden", "Only an administrator may do that.")
    return me


RowId = Annotated[int, Path(ge=1, le=2**31 - 1, description="A row's id (a 32-bit integer).")]
"""A table's or a hand's id in a path: a larger one is malformed, not a database error."""
User = Annotated[Me, Depends(current_user)]
Admin = Annotated[Me, Depends(current_admin)]
OriginChecked = Depends(check_origin)

__all__ = [
    "CSRF_HEADER",
    "SESSION_COOKIE",
    "Admin",
    "ApiError",
    "ErrorOut",
    "OriginChecked",
    "RowId",
    "User",
    "accounts_of",
    "check_origin",
    "client_address",
    "current_user",
    "db_of",
    "error_body",
    "errors",
    "install",
    "optional_user",
    "settings_of",
]
