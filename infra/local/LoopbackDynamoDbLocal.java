// Starts DynamoDB Local as its own command line would, but listening on one address only. Its command
// line has no option for the address (3.3.0: -port, -dbPath, -inMemory, -sharedDb, -cors, ...), and the
// Jetty server it builds binds every interface, where anyone on the network could read the signing key
// from the table. So this builds the server through DynamoDB Local's own API and sets the address on
// its connectors before it starts. dynamodb-local.ts compiles it once against the jar, then runs
// java -cp DynamoDBLocal.jar:<compiled> LoopbackDynamoDbLocal <address> <DynamoDB Local options>.
import java.lang.reflect.Field;
import java.util.Arrays;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    String address = args[0];
    DynamoDBProxyServer proxy =
        ServerRunner.createServerFromCommandLineArgs(Arrays.copyOfRange(args, 1, args.length));
    // DynamoDB Local keeps its Jetty server private; a release that renames the field fails here, loudly,
    // rather than listening everywhere.
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local's server has no connector");
    for (Connector connector : connectors) ((ServerConnector) connector).setHost(address);
    proxy.start();
    if (!server.isStarted()) System.exit(1);
  }
}
