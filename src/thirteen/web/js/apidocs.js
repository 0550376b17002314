// The HTTP API's page (/api/docs): Swagger UI, packaged with the room, reading the room's own
// /openapi.json. A script of its own, not inline: the room's policy allows no inline script.
/* global SwaggerUIBundle */
// @ts-ignore -- SwaggerUIBundle is the global the packaged swagger-ui-bundle.js defines
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
