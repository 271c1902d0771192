import CNcursesw
import CardText
