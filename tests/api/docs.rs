//! The Swagger UI at /docs/, served from the binary.

use crate::helpers::spawn_app;

#[test]
fn docs_redirects_to_the_trailing_slash() {
    let app = spawn_app();
    let r = app.get("/docs");
    assert_eq!(r.status, 308);
    assert_eq!(r.header("location"), Some("/docs/"));
}

#[test]
fn the_docs_page_and_its_scripts_come_from_the_binary() {
    let app = spawn_app();
    let page = app.get("/docs/");
    assert_eq!(page.status, 200);
    assert!(
        page.content_type.starts_with("text/html"),
        "{}",
        page.content_type
    );
    assert!(page.body.contains("swagger-ui-bundle.js"));
    assert!(
        !page.body.contains("://"),
        "the page loads nothing from elsewhere"
    );

    let bundle = app.get("/docs/swagger-ui-bundle.js");
    assert_eq!(bundle.status, 200);
    assert_eq!(bundle.content_type, "text/javascript");
    assert!(bundle.body.len() > 100_000 && bundle.body.contains("SwaggerUIBundle"));

    let init = app.get("/docs/swagger-initializer.js");
    assert_eq!(init.status, 200);
    assert!(
        init.body.contains("\"url\": \"/openapi.json\""),
        "{}",
        init.body
    );

    // No call to the outside validator: its URL is set to `none`.
    assert!(
        init.body.contains("\"validatorUrl\": \"none\""),
        "{}",
        init.body
    );
    assert!(!init.body.contains("validator.swagger.io"), "{}", init.body);

    let css = app.get("/docs/swagger-ui.css");
    assert_eq!(css.status, 200);
    assert!(css.content_type.starts_with("text/css"));
}
