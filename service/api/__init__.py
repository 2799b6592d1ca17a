"""The REST API's blueprints, request schemas, auth, errors and limits; the contract is api_spec.yaml."""
