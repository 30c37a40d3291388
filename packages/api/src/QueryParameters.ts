/**
 * Query parameters typed in the OpenAPI description as the handlers receive them.
 *
 * Effect's generator describes a query parameter by its wire form, which is always a string: the
 * framework decodes the query with the string-tree codec, so `size: integer(1, 100)` comes out as
 * `{type: "string"}`, and a check cannot change a schema's JSON type (its `toJsonSchema` fragment
 * is merged beside `type: "string"`). OpenAPI describes a parameter's value once its style is
 * applied: `?size=10` is an integer parameter, and typed clients generated from the description
 * take a number. So this transform, the one thing the generator cannot say, replaces each query
 * parameter's schema with the JSON Schema of the type its endpoint decodes it to (with the range
 * checks that type carries), keeping the parameter's description.
 */
import { HttpApi, type HttpApiGroup } from "effect/http-api"
import { Schema, SchemaAST } from "effect"

/** The schema without its `undefined` members: an absent parameter is `required: false`, not a value. */
const present = (ast: SchemaAST.AST): SchemaAST.AST => {
  if (!SchemaAST.isUnion(ast)) return ast
  const members = ast.types.map(present).flatMap((member) => (SchemaAST.isUnion(member) ? member.types : [member])).filter((member) => !SchemaAST.isUndefined(member))
  return members.length === 1 ? members[0]! : new SchemaAST.Union(members, ast.options)
}

/** The JSON Schema of each query parameter's decoded type, by operation (`get /v1/forms`). */
const decodedQueryTypes = <Id extends string, Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<Id, Groups>) => {
  const byOperation = new Map<string, Map<string, Record<string, unknown>>>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      if (endpoint.query === undefined) return
      const type = SchemaAST.toType(endpoint.query.ast)
      if (!SchemaAST.isObjects(type)) return
      const parameters = new Map<string, Record<string, unknown>>()
      for (const property of type.propertySignatures) {
        const { description: _, ...schema } = Schema.toJsonSchemaDocument(Schema.make(present(property.type))).schema as Record<string, unknown>
        parameters.set(String(property.name), schema)
      }
      const path = endpoint.path.replace(/:(\w+)/g, "{$1}")
      byOperation.set(`${endpoint.method.toLowerCase()} ${path}`, parameters)
    }
  })
  return byOperation
}

interface Parameter {
  readonly name: string
  readonly in: string
  readonly schema?: { readonly description?: string }
}

/** The transform for `OpenApi.annotations({ transform })` of an API made of `api`'s groups. */
export const typedQueryParameters = <Id extends string, Groups extends HttpApiGroup.Constraint>(api: HttpApi.HttpApi<Id, Groups>) => {
  const types = decodedQueryTypes(api)
  return (spec: Record<string, any>): Record<string, any> => {
    const paths = Object.fromEntries(Object.entries<Record<string, any>>(spec["paths"] ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(Object.entries(item).map(([method, op]) => {
        const typed = types.get(`${method} ${path}`)
        if (typed === undefined || !Array.isArray(op?.parameters)) return [method, op]
        const parameters = (op.parameters as ReadonlyArray<Parameter>).map((parameter) => {
          const schema = parameter.in === "query" ? typed.get(parameter.name) : undefined
          if (schema === undefined) return parameter
          const description = parameter.schema?.description
          return { ...parameter, schema: description === undefined ? schema : { ...schema, description } }
        })
        return [method, { ...op, parameters }]
      }))
    ]))
    return { ...spec, paths }
  }
}
